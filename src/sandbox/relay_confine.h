// The relay's own confinement (network.md): it parses hostile bytes (DNS, TLS, HTTP)
// from the session, so it runs with no filesystem access at all (Landlock, every
// right handled and none granted; signals and abstract unix sockets scoped) and a
// seccomp allowlist of what an epoll socket loop needs (sockets of the inet families
// only). Called in the relay's process after it holds every fd it will need.
#pragma once
#include "base/result.h"
#include "sandbox/caps.h"

namespace lash::sandbox {

Result<void> confine_relay(const Capabilities& caps);

}  // namespace lash::sandbox
