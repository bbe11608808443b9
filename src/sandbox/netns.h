// The session's network namespace (network.md): made once per prepared profile by a
// short helper that unshares CLONE_NEWNET (inside lash's own user namespace when lash
// is not root, so it holds CAP_NET_ADMIN over that namespace and nothing of the
// host's), brings `lo` up, routes everything to `lo`, installs the interception and
// opens the relay's listening sockets there. It hands back the namespace and the
// sockets over a unix socket and exits; every sandboxed process joins the namespace
// with setns() after fork (child.cpp). Its only way out is the relay, which runs in
// the host's namespace with the listeners it was given.
//
// Interception, preferred: an nftables ruleset (libnftables) redirecting every TCP
// connection to one listener and DNS (UDP and TCP port 53) to the DNS listeners; the
// relay reads the original destination with SO_ORIGINAL_DST. Fallback where nftables
// cannot be used: a `local` route for every address on `lo`, one listener per allowed
// port (the original destination is the socket's own address); connections to other
// ports are refused by the kernel, unseen by the relay.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

enum class NetInterception { nftables, local_route };

struct RelayListener {
  enum Role : uint8_t { tcp, dns_udp, dns_tcp } role = tcp;
  unique_fd fd;
};

struct SessionNetwork {
  unique_fd netns;                        // children setns() into it
  NetInterception mode = NetInterception::nftables;
  std::vector<RelayListener> listeners;   // for the relay, then closed in lash
  std::string note;                       // why the fallback is in use, "" otherwise
};

// The listener ports inside the namespace (nftables mode).
inline constexpr uint16_t kRelayTcpPort = 7;
inline constexpr uint16_t kRelayDnsPort = 53;
// More allowed ports than this cannot be served by the local-route fallback.
inline constexpr size_t kMaxLocalPorts = 256;

// PORTS: the allowed TCP ports (for the fallback). OWN_PORTS: allow_bind, whose
// loopback connections stay in the namespace (the fallback needs nothing: every
// address is local there). FORCE_LOCAL: skip nftables (tests, and
// LASH_NET_INTERCEPTION=local). Must be called where lash may fork helpers.
Result<SessionNetwork> make_session_network(const std::vector<PortRange>& ports,
                                            const std::vector<PortRange>& own_ports, bool force_local);

const char* interception_name(NetInterception m);

}  // namespace lash::sandbox
