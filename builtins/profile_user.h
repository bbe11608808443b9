// `profile review --user NAME`: which profile a login of NAME would run under and why,
// for an administrator who does not log in as NAME (profile_user.cpp).
#pragma once
#include <string>

#include "policy/json_text.h"
#include "policy/selector.h"
#include "policy/session_select.h"

namespace lash::builtins {

// The lines printed before the review of the selected profile: the account, its login
// shell, the profile and where the choice came from, and the selection's warnings.
std::string user_selection_text(const policy::Account& acc, const policy::Selection& sel);
// The same as the "user" object of `profile review --json --user NAME`.
policy::Json user_selection_json(const policy::Account& acc, const policy::Selection& sel);

}  // namespace lash::builtins
