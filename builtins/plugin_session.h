// The session's plugins as the `plugin` builtin finds and starts them, shared with
// `profile review` (which shows each plugin's effective grants under a profile).
#pragma once
#include "plugin/discovery.h"
#include "plugin/host.h"

namespace lash::exec {
class Shell;
}

namespace lash::builtins {
// Found once per session (user plugins left out under a system-assigned profile).
const plugin::Discovered& discovered();
// What a plugin starts with in this session: its sandbox, environment, $LASH_HOME.
plugin::StartContext start_context(exec::Shell& sh);
}  // namespace lash::builtins
