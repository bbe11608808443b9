// A DNS question as the policy engine sees it: the NetConnect of a name with no address
// and port 0 (net/flow_rules.h builds it). It has no port of its own, so reports show the
// name alone ("dns NAME") and refusals say "cannot resolve"; the engine decides it as a
// connection to that name on a port the profile allows. No real flow has port 0 and no
// address: the relay always knows a flow's destination.
#pragma once
#include "policy/action.h"

namespace lash::policy {

inline bool is_dns_question(const NetConnect& n) { return n.port == 0 && n.ip.empty() && !n.udp && !n.host.empty(); }

}  // namespace lash::policy
