// What `profile review` says about the session network (network.md): kept apart from
// plan_print.cpp's other sections so the network's wording has one place.
#include <cstdlib>
#include <string>
#include <vector>

#include "sandbox/netns.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

std::vector<std::string> network_relay_lines(const SandboxPlan& p) {
  std::vector<std::string> out;
  if (!p.net_relay) return out;
  const char* mode = getenv("LASH_NET_INTERCEPTION");
  bool local = mode && std::string(mode) == "local";
  out.push_back(std::string("network: the session's own network namespace; its only way out is lash's relay") +
                (p.net_enforcement == Enforcement::warn ? " (enforcement = warn: refusals are recorded as "
                                                          "'would deny' and relayed)"
                                                        : ""));
  out.push_back("  DNS: answered by the relay from policy (allowed names forwarded to this host's resolver, "
                "others NXDOMAIN, HTTPS/SVCB records empty), whatever resolver a program asks");
  out.push_back("  TCP: by host name: the address must come from the relay's DNS for an allowed name (or an IP "
                "rule); TLS SNI and the Host of every HTTP request must be that name; internal addresses only by "
                "IP rule");
  out.push_back("  UDP other than DNS: dropped (443 rejected)");
  if (local)
    out.push_back("  interception: local route (LASH_NET_INTERCEPTION=local): one listener per allowed port; "
                  "connections to other ports are refused by the kernel and not seen or recorded by the relay");
  else
    out.push_back("  interception: nftables redirect (every TCP connection reaches the relay); where nftables is "
                  "unavailable, a local route with one listener per allowed port, whose other ports are refused "
                  "by the kernel unseen by the relay (said when the session starts)");
  return out;
}

}  // namespace lash::sandbox
