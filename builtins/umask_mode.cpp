// umask argument rules (see umask_mode.h). The symbolic form works on the
// permissions `~mask`: each clause picks positions (u g o, default a) and an
// operator with permission letters; u/g/o and X read the permissions as they
// were before the whole spec, as in dash.
#include "builtins/umask_mode.h"

namespace lash::builtins {

std::optional<mode_t> umask_parse_octal(std::string_view spec) {
  if (spec.empty()) return std::nullopt;
  unsigned v = 0;
  for (char c : spec) {
    if (c < '0' || c > '7') return std::nullopt;
    v = ((v << 3) + static_cast<unsigned>(c - '0')) & 07777777;  // no overflow
  }
  return static_cast<mode_t>(v & 0777);
}

std::optional<mode_t> umask_apply_symbolic(std::string_view spec, mode_t current) {
  const unsigned perms = ~static_cast<unsigned>(current) & 0777;  // what is allowed
  unsigned result = perms;
  unsigned positions = 0;
  size_t p = 0;
  auto at = [&](size_t i) { return i < spec.size() ? spec[i] : '\0'; };
  while (at(p) != '\0') {
    for (;; ++p) {
      const char c = at(p);
      if (c == 'a') positions |= 0111;
      else if (c == 'u') positions |= 0100;
      else if (c == 'g') positions |= 0010;
      else if (c == 'o') positions |= 0001;
      else break;
    }
    if (positions == 0) positions = 0111;
    const char op = at(p);
    if (op != '=' && op != '+' && op != '-') break;
    ++p;
    unsigned val = 0;
    for (;; ++p) {
      const char c = at(p);
      if (c == 'r') val |= 04;
      else if (c == 'w') val |= 02;
      else if (c == 'x') val |= 01;
      else if (c == 'u') val |= perms >> 6;
      else if (c == 'g') val |= perms >> 3;
      else if (c == 'o') val |= perms;
      else if (c == 'X') val |= (perms & 0111) ? 01 : 0;
      else if (c == 's') continue;  // accepted and ignored
      else break;
    }
    val = (val & 07) * positions;
    if (op == '-')
      result &= ~val;
    else if (op == '=')
      result = val | (result & ~(positions * 07));
    else
      result |= val;
    if (at(p) == ',') {
      positions = 0;
      ++p;
    } else if (at(p) != '=' && at(p) != '+' && at(p) != '-') {
      break;
    }
  }
  if (p < spec.size()) return std::nullopt;
  return static_cast<mode_t>(~result & 0777);
}

std::string umask_symbolic_text(mode_t mask) {
  const unsigned allowed = ~static_cast<unsigned>(mask) & 0777;
  std::string s;
  for (int i = 0; i < 3; ++i) {
    s += "ugo"[i];
    s += '=';
    for (int j = 0; j < 3; ++j)
      if (allowed & (1u << (8 - (3 * i + j)))) s += "rwx"[j];
    s += ',';
  }
  s.pop_back();
  return s;
}

}  // namespace lash::builtins
