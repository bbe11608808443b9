// Starts the session relay (net/relay.h) for the active profile, in a helper forked by
// the sandbox: every DNS name and TCP flow of the session's programs is decided there
// by an engine built from the same profile, and recorded through the session's audit
// log like any other decision.
#pragma once
#include <memory>

#include "base/result.h"
#include "policy/resolver.h"

namespace lash::exec {

struct Session;
Result<void> start_network_relay(Session& s, std::shared_ptr<const policy::ResolvedProfile> profile);

}  // namespace lash::exec
