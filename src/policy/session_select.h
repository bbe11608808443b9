// The real inputs of profile selection: uid, groups, environment and files. A thin layer
// over selector.h, which holds every rule.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "base/result.h"
#include "policy/selector.h"
#include "policy/store.h"

namespace lash::policy {

// $LASH_HOME, else $HOME/.lash.
std::string lash_home();

// The system policy directory: LASH_SYSTEM_DIR of lash_config.h (/etc/lash by default).
// Tests may point it elsewhere with the environment variable LASH_TEST_SYSTEM_DIR, which
// is honoured only while <LASH_SYSTEM_DIR>/lash.conf does not exist, so it can never
// replace a real system policy.
std::string system_dir();
// HOME and the account's home from the password database (absolute, deduplicated):
// where ~/.lash of another session would be.
std::vector<std::string> home_directories();
// The rule above as a pure function.
std::string choose_system_dir(std::string_view compiled, const char* test_override,
                              bool real_policy_exists);

// user dir $LASH_HOME/profiles, system dir <system_dir>/profiles, then built-in.
SearchPath session_search_path();

// Reads <dir>/lash.conf with its trust check; nullopt when there is none.
std::optional<SystemPolicyFile> read_system_policy(const std::string& dir);

// The inputs for this process: real uid's name and groups, LASH_PROFILE, lash.conf and
// $LASH_HOME/config. CLI is the -p / --profile argument, if any.
SelectInputs session_inputs(std::optional<std::string> cli);

// select_profile(session_inputs(cli), session_search_path()) with the real search path.
Result<Selection> select_session_profile(std::optional<std::string> cli);

// An account as `profile review --user` shows it.
struct Account {
  std::string name;
  uid_t uid = 0;
  std::string home, shell;
  std::vector<std::string> groups;
};

// What a login of USER would run under, without logging in as USER (`profile review
// --user`): the lash.conf assignment for USER or one of their groups, else their own
// `[profile] default` in <home>/.lash/config (read with the caller's rights), else
// `default`. -p and LASH_PROFILE are the user's choice at login, unknown here. STORE is
// set to the store the selection loaded from. An error when there is no such user.
Result<std::pair<Account, Selection>> select_user_profile(const std::string& user, SearchPath& store);

}  // namespace lash::policy
