// libFuzzer target for the printf formatting core and test/[ evaluation. Input:
// arguments separated by NUL bytes (the first is printf's format). Nothing may
// crash; test's status is 0, 1 or 2 with a message exactly when it is 2.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "builtins/printf_format.h"
#include "exec/test_eval.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;
  size_t start = 0;
  for (;;) {
    size_t z = in.find('\0', start);
    args.emplace_back(in.substr(start, z == std::string_view::npos ? z : z - start));
    if (z == std::string_view::npos) break;
    start = z + 1;
  }
  // Huge field widths are legitimate but slow: skip inputs with long digit runs.
  bool long_number = false;
  for (const auto& a : args) {
    int run = 0;
    for (char c : a) {
      run = (c >= '0' && c <= '9') ? run + 1 : 0;
      if (run >= 5) long_number = true;
    }
  }
  if (!long_number) {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    auto p = lash::builtins::printf_format(args[0], rest);
    check(p.status >= 0 && p.status <= 2);
    check((p.status == 0) == p.errors.empty());
  }
  auto t = lash::builtins::test_eval(args);
  check(t.status >= 0 && t.status <= 2);
  check((t.status == 2) == !t.error.empty());
  return 0;
}
