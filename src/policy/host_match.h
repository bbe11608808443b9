// Host pattern matching of network.md: exact names, "*." subdomains (any depth, not the
// apex), and IP / CIDR ranges. Pure; shared by the engine and the network relay.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace lash::policy {

// Lowercase, one trailing dot removed.
std::string normalize_host(std::string_view host);
// A normalized DNS host name as lash compares it: labels of 1..63 bytes of letters,
// digits, '-' and '_', at most 253 bytes in all. IDNA names are compared in their
// ASCII (punycode, "xn--") form; raw UTF-8 bytes are not a name here.
bool valid_host_name(std::string_view normalized);

struct IpNet {
  std::array<uint8_t, 16> addr{};  // IPv4 kept in the first 4 bytes
  bool v6 = false;
  int prefix = 0;
};
// An IP literal ("10.0.0.1", "::1") or CIDR ("10.0.0.0/8"); IPv4-mapped IPv6 becomes IPv4.
std::optional<IpNet> parse_ip_net(std::string_view text);
bool is_ip_literal(std::string_view text);
// 127.0.0.0/8 or ::1 (IPv4-mapped included): this host's own loopback, as the relay
// (outside the session's namespace) would reach it.
bool is_loopback_address(std::string_view ip);

class HostMatcher {
 public:
  HostMatcher() = default;
  explicit HostMatcher(const std::vector<std::string>& patterns);
  bool empty() const { return exact_.empty() && wildcard_.empty() && nets_.empty(); }
  // Name rules only; HOST need not be normalized; a HOST that is not a valid_host_name
  // (empty labels, over-long, odd bytes) never matches. O(labels of HOST).
  bool match_name(std::string_view host) const;
  // IP/CIDR rules only; IP is an address literal.
  bool match_ip(std::string_view ip) const;

 private:
  std::unordered_set<std::string> exact_;
  std::unordered_set<std::string> wildcard_;  // "example.com" for "*.example.com"
  std::vector<IpNet> nets_;
};

}  // namespace lash::policy
