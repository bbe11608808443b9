// libFuzzer target for exec/pattern. Input: PATTERN '\n' TEXT. Besides never
// crashing, the two independent algorithms must agree: pattern_trim (an NFA over
// prefixes/suffixes, or anchored tries) must return exactly what trying every
// length with pattern_match (the star-segment matcher) gives.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "exec/pattern.h"

namespace {

using lash::exec::pattern_match;
using lash::exec::pattern_trim;
using lash::exec::TrimKind;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::string brute_trim(std::string_view text, std::string_view pat, bool suffix, bool shortest) {
  const size_t n = text.size();
  for (size_t step = 0; step <= n; ++step) {
    const size_t len = shortest ? step : n - step;
    std::string_view part = suffix ? text.substr(n - len) : text.substr(0, len);
    if (pattern_match(pat, part))
      return std::string(suffix ? text.substr(0, n - len) : text.substr(len));
  }
  return std::string(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const size_t nl = in.find('\n');
  std::string_view pat = in.substr(0, nl);
  std::string_view text = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
  if (pat.size() > 300 || text.size() > 300) return 0;  // brute force is cubic

  const bool m = pattern_match(pat, text);
  const bool pm = pattern_match(pat, text, true);
  // Pathname mode only adds restrictions.
  if (pm) check(m || text.find('/') != std::string_view::npos || pat.find('[') != std::string_view::npos);
  check(pattern_match("*", text));
  // A pattern without glob characters matches exactly its unescaped text.
  if (!lash::exec::has_glob_chars(pat)) check(m == (lash::exec::pattern_unescape(pat) == text));

  check(pattern_trim(text, pat, TrimKind::small_suffix) == brute_trim(text, pat, true, true));
  check(pattern_trim(text, pat, TrimKind::large_suffix) == brute_trim(text, pat, true, false));
  check(pattern_trim(text, pat, TrimKind::small_prefix) == brute_trim(text, pat, false, true));
  check(pattern_trim(text, pat, TrimKind::large_prefix) == brute_trim(text, pat, false, false));
  return 0;
}
