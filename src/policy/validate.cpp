#include "policy/validate.h"

#include <limits>

#include "base/strutil.h"
#include "policy/host_match.h"

namespace lash::policy::validate {
namespace {

Error bad(std::string msg) { return Error{std::move(msg), {}, 0, {}}; }

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}

}  // namespace

bool is_profile_name(std::string_view s) {
  if (s.empty() || s.size() > kMaxProfileName) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

Result<std::string> profile_name(std::string_view s) {
  if (!is_profile_name(s))
    return bad("invalid profile name " + quoted(s) + ": use 1 to 64 of A-Z a-z 0-9 _ -");
  return std::string(s);
}

Result<bool> boolean(std::string_view s) {
  std::string v = lower(s);
  if (v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return false;
  return bad("expected true/false, yes/no, on/off or 1/0, got " + quoted(s));
}

Result<uint64_t> size(std::string_view s) {
  std::string_view digits = s;
  unsigned shift = 0;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K': case 'k': shift = 10; break;
      case 'M': case 'm': shift = 20; break;
      case 'G': case 'g': shift = 30; break;
      case 'T': case 't': shift = 40; break;
      default: break;
    }
    if (shift) digits.remove_suffix(1);
  }
  auto n = all_digits(digits) ? str::parse_int(digits) : std::nullopt;
  if (!n) return bad("expected a size in bytes with optional K, M, G or T, got " + quoted(s));
  uint64_t v = uint64_t(*n);
  if (shift && v > (std::numeric_limits<uint64_t>::max() >> shift))
    return bad("size " + quoted(s) + " is too large");
  return v << shift;
}

Result<uint64_t> count(std::string_view s) {
  auto n = all_digits(s) ? str::parse_int(s) : std::nullopt;
  if (!n) return bad("expected a non-negative integer, got " + quoted(s));
  return uint64_t(*n);
}

Result<PortRange> port_range(std::string_view s) {
  auto one = [](std::string_view t) -> int {
    auto n = all_digits(t) && t.size() <= 5 ? str::parse_int(t) : std::nullopt;
    return n && *n >= 1 && *n <= 65535 ? int(*n) : -1;
  };
  auto dash = s.find('-');
  int lo = one(s.substr(0, dash));
  int hi = dash == std::string_view::npos ? lo : one(s.substr(dash + 1));
  if (lo < 0 || hi < 0) return bad("expected a port 1-65535 or a range LOW-HIGH, got " + quoted(s));
  if (lo > hi) return bad("port range " + quoted(s) + " is empty (LOW > HIGH)");
  return PortRange{uint16_t(lo), uint16_t(hi)};
}

Result<std::string> path(std::string_view s) {
  if (s.empty()) return bad("empty path");
  bool ok = s[0] == '/' || s == "." || s.substr(0, 2) == "./" || s == "~" || s.substr(0, 2) == "~/";
  if (!ok)
    return bad("path " + quoted(s) +
               " is not absolute (use /..., or ./... for the starting directory, ~/... for HOME)");
  return std::string(s);
}

Result<std::string> exec_path(std::string_view s) {
  if (s == "$TMPDIR") return std::string(s);
  if (!s.empty() && s[0] == '$')
    return bad("exec path " + quoted(s) + ": the only variable is $TMPDIR (the session tmpdir)");
  return path(s);
}

Result<std::string> relative_path(std::string_view s) {
  if (s.empty() || s[0] == '/') return bad("expected a relative path, got " + quoted(s));
  for (const auto& part : str::split(s, '/'))
    if (part == "..") return bad("path " + quoted(s) + " must not contain '..'");
  return std::string(s);
}

Result<std::string> program(std::string_view s) {
  if (s.empty()) return bad("empty program name");
  // `~/...` is HOME's, as in every path key (expanded when the session starts).
  // `~/...` (HOME) and `./...` (the starting directory), as in every path key.
  if (s[0] == '/' || ((s.substr(0, 2) == "~/" || s.substr(0, 2) == "./") && s.size() > 2)) return std::string(s);
  if (s.find('/') != std::string_view::npos || s == "." || s == ".." || s == "~")
    return bad("expected a bare command name, an absolute path, ~/path or ./path, got " + quoted(s));
  return std::string(s);
}

Result<std::string> host_pattern(std::string_view s) {
  if (parse_ip_net(s)) return std::string(s);
  std::string h = normalize_host(s);
  std::string_view name = h;
  if (name.substr(0, 2) == "*.") name.remove_prefix(2);
  auto fail = [&](const std::string& why) {
    return bad("invalid host pattern " + quoted(s) + ": " + why +
               " (use a host name, *.domain, an IP address or a CIDR range)");
  };
  if (name.empty() || name.size() > 253) return fail("bad length");
  for (const auto& label : str::split(name, '.')) {
    if (label.empty() || label.size() > 63) return fail("empty or over-long label");
    if (label.front() == '-' || label.back() == '-') return fail("a label starts or ends with '-'");
    for (char c : label) {
      if (static_cast<unsigned char>(c) >= 0x80)
        return fail("write international names in their xn-- (punycode) form");
      if (!is_name_char(c)) return fail(std::string("character '") + c + "' is not allowed");
    }
  }
  return h;
}

bool is_env_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!(is_name_char(c) && c != '-')) return false;
  return true;
}

Result<std::string> env_pattern(std::string_view s) {
  std::string_view name = s;
  if (!name.empty() && name.back() == '*') name.remove_suffix(1);
  if ((name.empty() && s != "*") || (!name.empty() && !is_env_name(name)))
    return bad("expected a variable name or PREFIX*, got " + quoted(s));
  return std::string(s);
}

Result<std::string> env_force(std::string_view s) {
  auto eq = s.find('=');
  if (eq == std::string_view::npos) return bad("expected KEY=VALUE, got " + quoted(s));
  if (!is_env_name(s.substr(0, eq)))
    return bad("invalid variable name " + quoted(s.substr(0, eq)) + " in " + quoted(s));
  return std::string(s);
}

Result<std::string> plugin_name(std::string_view s) {
  bool ok = !s.empty() && s.size() <= 64;
  for (char c : s) ok = ok && (is_name_char(c) || c == '.');
  if (!ok) return bad("invalid plugin name " + quoted(s));
  return std::string(s);
}

Result<Tmpdir> tmpdir(std::string_view s) {
  if (s == "session") return Tmpdir::session;
  if (s == "none") return Tmpdir::none;
  return bad("expected 'session' or 'none', got " + quoted(s));
}

Result<Enforcement> enforcement(std::string_view s) {
  if (s == "enforce") return Enforcement::enforce;
  if (s == "warn") return Enforcement::warn;
  return bad("expected 'enforce' or 'warn', got " + quoted(s));
}

Result<std::vector<std::string>> split_list(std::string_view s) {
  std::vector<std::string> out;
  if (str::trim(s).empty()) return out;
  auto parts = str::split(s, ',');
  for (size_t i = 0; i < parts.size(); ++i) {
    auto item = str::trim(parts[i]);
    if (item.empty()) {
      if (i + 1 == parts.size() && i > 0) break;  // one trailing comma
      return bad("empty item in list " + quoted(str::trim(s)));
    }
    out.emplace_back(item);
  }
  return out;
}

}  // namespace lash::policy::validate
