#include "policy/host_match.h"

#include <arpa/inet.h>

#include <cstring>

#include "base/strutil.h"

namespace lash::policy {

std::string normalize_host(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  std::string out(host);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

bool valid_host_name(std::string_view h) {
  if (h.empty() || h.size() > 253) return false;
  size_t label = 0;
  for (char c : h) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    if (++label > 63) return false;
  }
  return label > 0;
}

std::optional<IpNet> parse_ip_net(std::string_view text) {
  std::string_view addr = text;
  int prefix = -1;
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    auto p = str::parse_int(text.substr(slash + 1));
    if (!p || *p < 0 || text.substr(slash + 1).find_first_not_of("0123456789") !=
                            std::string_view::npos)
      return std::nullopt;
    prefix = int(*p > 128 ? 129 : *p);
    addr = text.substr(0, slash);
  }
  if (addr.empty() || addr.size() > 45) return std::nullopt;
  char buf[64];
  std::memcpy(buf, addr.data(), addr.size());
  buf[addr.size()] = '\0';
  IpNet net;
  if (inet_pton(AF_INET, buf, net.addr.data()) == 1) {
    net.v6 = false;
    if (prefix > 32) return std::nullopt;
    net.prefix = prefix < 0 ? 32 : prefix;
    return net;
  }
  if (inet_pton(AF_INET6, buf, net.addr.data()) != 1) return std::nullopt;
  if (prefix > 128) return std::nullopt;
  net.v6 = true;
  net.prefix = prefix < 0 ? 128 : prefix;
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(net.addr.data(), mapped, 12) == 0 && net.prefix >= 96) {
    std::memmove(net.addr.data(), net.addr.data() + 12, 4);
    std::memset(net.addr.data() + 4, 0, 12);
    net.v6 = false;
    net.prefix -= 96;
  }
  return net;
}

bool is_ip_literal(std::string_view text) {
  return text.find('/') == std::string_view::npos && parse_ip_net(text).has_value();
}

HostMatcher::HostMatcher(const std::vector<std::string>& patterns) {
  for (const auto& raw : patterns) {
    if (auto net = parse_ip_net(raw)) {
      nets_.push_back(*net);
      continue;
    }
    std::string p = normalize_host(raw);
    // A pattern that is no valid name ("*", "a..b", "*.") can match nothing.
    if (p.size() > 2 && p[0] == '*' && p[1] == '.') {
      if (valid_host_name(std::string_view(p).substr(2))) wildcard_.insert(p.substr(2));
    } else if (valid_host_name(p)) {
      exact_.insert(std::move(p));
    }
  }
}

bool HostMatcher::match_name(std::string_view host) const {
  if (host.empty() || is_ip_literal(host)) return false;
  std::string h = normalize_host(host);
  if (!valid_host_name(h)) return false;
  if (exact_.count(h)) return true;
  // "*.example.com" matches when some proper suffix after a dot is "example.com".
  for (size_t dot = h.find('.'); dot != std::string::npos; dot = h.find('.', dot + 1))
    if (wildcard_.count(h.substr(dot + 1))) return true;
  return false;
}

static bool in_net(const IpNet& net, const IpNet& ip) {
  if (net.v6 != ip.v6) return false;
  int full = net.prefix / 8, rest = net.prefix % 8;
  if (std::memcmp(net.addr.data(), ip.addr.data(), size_t(full)) != 0) return false;
  if (rest == 0) return true;
  uint8_t mask = uint8_t(0xff << (8 - rest));
  return (net.addr[size_t(full)] & mask) == (ip.addr[size_t(full)] & mask);
}

bool is_loopback_address(std::string_view ip) {
  if (ip.find('/') != std::string_view::npos) return false;
  auto a = parse_ip_net(ip);
  if (!a) return false;
  if (!a->v6) return a->addr[0] == 127;
  static constexpr std::array<uint8_t, 16> kV6Loopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return a->addr == kV6Loopback;
}

bool HostMatcher::match_ip(std::string_view ip) const {
  if (nets_.empty() || ip.find('/') != std::string_view::npos) return false;
  auto addr = parse_ip_net(ip);
  if (!addr) return false;
  for (const auto& n : nets_)
    if (in_net(n, *addr)) return true;
  return false;
}

}  // namespace lash::policy
