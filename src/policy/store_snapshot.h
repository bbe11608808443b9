// A copy of the profile directories, taken by the shell before it forks a subshell.
//
// A subshell (a pipeline member, `( )`, `$( )`) runs under the session's sandbox,
// which may not read $LASH_HOME. The `profile` builtins in it must still give the
// answers they give in the shell itself (`profile list | cat`), so the shell reads the
// directories it may read before the fork and the subshell answers from this copy.
// The copy holds exactly what read_policy_file returned, errors included.
#pragma once
#include <string>
#include <string_view>
#include <vector>
#include <optional>

#include "base/result.h"

namespace lash::policy {

// Brings the copy of DIRS up to date (one stat per directory and per file when
// nothing changed). Called in the shell before a sandboxed fork.
void refresh_store_snapshot(const std::vector<std::string>& dirs);
// From now on (in this process: the forked subshell) SearchPath reads the copy for
// the directories it holds.
void use_store_snapshot();

// nullopt when the copy is not in use or does not hold DIR; otherwise what reading
// DIR/NAME.profile returned when the copy was taken.
std::optional<Result<std::optional<std::string>>> snapshot_file(const std::string& dir,
                                                                std::string_view name);
std::optional<std::vector<std::string>> snapshot_names(const std::string& dir);

}  // namespace lash::policy
