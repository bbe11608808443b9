// `profile explain`: the smallest profile change that would allow what a command line
// is refused, as a snippet (profile_explain.cpp).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/dry_run.h"
#include "policy/profile_model.h"

namespace lash::builtins {

// The snippet for what DECIDE (the dry run of a command line) refuses under R (empty when nothing is refused);
// REFUSALS gets one "refused: ..." line per refused action.
using DecideFn = std::function<std::optional<std::vector<exec::CheckedAction>>(
    const std::shared_ptr<const policy::ResolvedProfile>&)>;
std::string explain_snippet(const std::shared_ptr<const policy::ResolvedProfile>& r, const DecideFn& decide,
                            std::string& refusals);

}  // namespace lash::builtins
