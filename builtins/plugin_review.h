// `profile review NAME` shows, for each plugin of the session, whether NAME lets it
// be called (the engine decides, as for a real call) and its effective grants: what
// its manifest asks for, narrowed to what NAME's sandbox grants (the two Landlock
// layers a running plugin has only intersect), and the hosts it may reach.
#pragma once
#include <string>

#include "policy/json_text.h"
#include "policy/profile_model.h"

namespace lash::exec {
class Shell;
}

namespace lash::builtins {
std::string plugin_grants_text(exec::Shell& sh, const std::shared_ptr<const policy::ResolvedProfile>& p);
policy::Json plugin_grants_json(exec::Shell& sh, const std::shared_ptr<const policy::ResolvedProfile>& p);
}  // namespace lash::builtins
