// libFuzzer target for exec/arith: any text must give a value or an error, never
// a crash, undefined behaviour (run under UBSan), or unbounded recursion; and a
// successful evaluation must be repeatable with the same variables.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "exec/arith.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

struct Vars : lash::exec::ArithVars {
  std::map<std::string, std::string, std::less<>> m{
      {"x", "5"}, {"y", "-3"}, {"big", "9223372036854775807"}, {"min", "-9223372036854775808"},
      {"hex", "0x1f"}, {"oct", "017"}, {"bad", "1+1"}, {"empty", ""}, {"ro", "1"}};
  const std::string* get(std::string_view n) override {
    auto it = m.find(n);
    return it == m.end() ? nullptr : &it->second;
  }
  bool set(std::string_view n, int64_t v, std::string* err) override {
    if (n == "ro") {
      *err = "ro: is read only";
      return false;
    }
    m[std::string(n)] = std::to_string(v);
    return true;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view expr(reinterpret_cast<const char*>(data), size);
  Vars a;
  auto r1 = lash::exec::arith_eval(expr, a);
  if (r1.error) check(!r1.error->empty());
  Vars b;
  auto r2 = lash::exec::arith_eval(expr, b);
  check(r1.value == r2.value && r1.error == r2.error && a.m == b.m);
  return 0;
}
