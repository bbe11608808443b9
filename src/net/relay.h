// The session relay (network.md): an epoll loop in a helper process outside the
// session's network namespace, given the listening sockets made inside it. It answers
// DNS from policy, remembers which names each address was resolved for, and relays a
// TCP connection only when the policy allows its port, its address (from lash's own
// DNS or an IP rule) and the name the client claims (TLS SNI, HTTP Host of every
// request). Refusals are TCP resets. It never returns.
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "policy/action.h"

namespace lash::net {

struct RelayListen {
  enum Role : uint8_t { tcp, dns_udp, dns_tcp } role = tcp;
  int fd = -1;
};

struct RelayConfig {
  std::vector<RelayListen> listeners;
  bool nat = true;  // original destination from SO_ORIGINAL_DST, else getsockname()
  std::vector<sockaddr_storage> resolvers;  // the host's, from /etc/resolv.conf
  // May this name be resolved? Records the refusal; true under `warn` (would deny).
  std::function<bool(const std::string& name)> dns_allowed;
  // May this flow go on? Records the decision; true under `warn` (would deny).
  std::function<bool(const policy::NetConnect& flow)> allowed;
  int sni_timeout_ms = 10000;
  // This host's own interface addresses when the session started: like internal
  // addresses, never reached through a name, only through an IP rule.
  std::vector<std::string> host_addresses;
};

// The host's resolvers (nameserver lines of PATH; 127.0.0.1 when none).
std::vector<sockaddr_storage> read_resolvers(const char* path = "/etc/resolv.conf");

// Loopback, link-local, private (RFC 1918, CGNAT, ULA), unspecified and multicast
// addresses: never reached through a name, only through an IP rule.
bool is_internal_address(const std::string& ip);

// The addresses of this host's interfaces (getifaddrs), as literals. Read by lash
// before the relay is confined (it cannot see them afterwards).
std::vector<std::string> read_host_addresses();

[[noreturn]] void run_relay(RelayConfig cfg);

}  // namespace lash::net
