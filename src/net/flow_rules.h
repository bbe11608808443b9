// How the relay turns what it saw of a DNS question or a TCP flow into the action the
// policy engine decides (network.md). Kept apart from the sockets so that the dry run
// (`profile test --net`) builds the very same actions for the very same engine: the
// relay and the dry run differ only in where the facts come from, never in the rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "policy/action.h"
#include "policy/profile_model.h"

namespace lash::net {

// The question "may NAME be resolved?": a connection to NAME on an allowed port would
// be allowed (443 when allowed or allow_ports is empty, else the first allowed port).
policy::NetConnect dns_question(const std::string& name, const policy::Profile& p);

// A TCP flow to IP:PORT whose client claims CLAIMED (the TLS SNI or the Host of an HTTP
// request; empty on other ports, where nothing is claimed). NAME_FOR_IP: the name lash's
// DNS gave IP for (the relay's address book picks CLAIMED when it is one of them), or
// IP itself when none, or for an internal address or one of this host's own.
policy::NetConnect tcp_flow(const std::string& name_for_ip, const std::string& ip, uint16_t port,
                            const std::string& claimed);

// A flow whose name cannot be checked (no SNI or an IP-literal SNI on 443, bytes that are
// no request line on 80): the address alone is the host, so only an IP rule allows it.
policy::NetConnect unchecked_flow(const std::string& ip, uint16_t port);

// A datagram to PORT (UDP): the session's namespace lets only DNS out, to the relay.
policy::NetConnect udp_datagram(const std::string& host, const std::string& ip, uint16_t port);

// One step of a dry-run connection (`profile test --net TARGET`) and what the relay
// would see at that step, for the engine to decide.
struct DryFlowStep {
  policy::NetConnect action;
  std::string note;  // what this step is ("DNS question", "TLS ClientHello with SNI ..."); for the report
};

// TARGET: "dns:NAME", "HOST:PORT" (by name: resolved through lash's DNS, then connected
// with that name as SNI on 443 and as Host on 80), "IP:PORT" or "[IPv6]:PORT" (an IP
// literal: no DNS, no name), "udp:HOST:PORT". The steps, in the relay's order.
Result<std::vector<DryFlowStep>> dry_flow_steps(const std::string& target, const policy::Profile& p);

}  // namespace lash::net
