// libFuzzer target for net/http_stream. The input is fed whole and in small pieces;
// both must report the same hosts in the same order, every step must move forward
// within the pending bytes, and every host reported is lowercase.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_stream.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::vector<std::string> run(std::string_view in, size_t chunk) {
  lash::net::HttpRequestStream s;
  std::vector<std::string> out;
  std::string pending;
  for (size_t at = 0; at < in.size(); at += chunk) {
    pending += in.substr(at, chunk);
    while (!pending.empty()) {
      auto st = s.next(pending);
      if (st.kind == lash::net::HttpStep::need_more) break;
      if (st.kind == lash::net::HttpStep::malformed) {
        out.push_back("!");
        return out;
      }
      check(st.length > 0 && st.length <= pending.size());
      if (st.kind == lash::net::HttpStep::head) {
        for (char c : st.host) check(!(c >= 'A' && c <= 'Z'));
        out.push_back(st.host);
        s.accept_head();
      }
      pending.erase(0, st.length);
    }
  }
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (size > 70000) return 0;
  auto whole = run(in, in.size() ? in.size() : 1);
  auto pieces = run(in, 7);
  // Pieces may stop at need_more where the whole input is refused at a cap, never
  // disagree on a host that both saw.
  for (size_t i = 0; i < whole.size() && i < pieces.size(); ++i)
    if (whole[i] != "!" && pieces[i] != "!") check(whole[i] == pieces[i]);
  (void)lash::net::parse_http_head(in);
  return 0;
}
