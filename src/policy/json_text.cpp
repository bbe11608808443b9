#include "policy/json_text.h"

#include <cstdio>

namespace lash::policy {
namespace {

// Length of the valid UTF-8 sequence at S[I], or 0 (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF).
size_t utf8_len(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  if (c == 0xe0 && b(i + 1) < 0xa0) return 0;
  if (c == 0xed && b(i + 1) > 0x9f) return 0;
  if (c == 0xf0 && b(i + 1) < 0x90) return 0;
  if (c == 0xf4 && b(i + 1) > 0x8f) return 0;
  return n;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_len(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_bytes(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_len(s, i);
    if (n == 0 || s[i] == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i]));
      out += buf;
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

void put_string(Json& obj, const char* key, std::string_view s) {
  if (valid_utf8(s)) {
    obj[key] = std::string(s);
    return;
  }
  obj[key] = escape_bytes(s);
  obj["escaped"].push_back(key);
}

}  // namespace lash::policy
