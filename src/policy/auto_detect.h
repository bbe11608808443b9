// Profile auto-detect (issue 14): a profile may carry rules saying in which context it
// fits, as data, so admins ship their own:
//
//   [detect]
//   when = env:GITHUB_ACTIONS, env:GITLAB_CI     ; a variable set and not empty
//   when = git-remote:*.corp.example             ; a remote host of the repository here
//   when = path:~/src/*                          ; the starting directory (glob)
//   when = container:*, ssh                      ; in a container (its kind: a glob); an SSH login
//
// Any one rule matching is a match. The rules belong to the file that writes them (a
// profile inheriting another does not inherit its rules). With `profile.auto_detect =
// true`, an interactive session suggests, in one line, the first profile (user, system,
// then built-in; by name) whose rules match and that is not the active one. A
// suggestion is never a switch; it is only made for a profile that is not wider than
// the active one, unless the active profile has profile_switch.
#pragma once
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/profile_model.h"
#include "policy/store.h"

namespace lash::policy {

// One `when = ...` entry of [detect]: the key must be `when`, each rule well-formed.
Result<void> check_detect_entry(std::string_view key, std::string_view value);

struct DetectContext {
  std::function<const char*(const char*)> getenv;
  std::vector<std::string> remote_hosts;  // of the git repository at start_dir, lowercase
  std::string start_dir, home;
  std::string container;  // container_kind(): "docker", "podman", "lxc", ..., "" outside one
};

// The kind of container lash runs in, "" when it sees none.
std::string container_kind(const std::function<const char*(const char*)>& getenv);

// The first rule of TEXT (a profile file) that matches, or nullopt.
std::optional<std::string> matching_rule(std::string_view profile_text, const DetectContext& ctx);

// The remote hosts named in the .git/config of the repository containing DIR.
std::vector<std::string> git_remote_hosts(const std::string& dir);
// The root of the repository containing DIR (the nearest directory holding .git),
// "" outside any.
std::string repository_root(const std::string& dir);

// Whether CANDIDATE is no wider than ACTIVE on the keys a user would notice first:
// programs, redirections, environment, network, every capability.
bool no_wider(const ResolvedProfile& candidate, const ResolvedProfile& active);

struct Suggestion {
  std::string profile, rule;
};
// The suggestion for this context, if any.
// The suggestion for this context, if any; profiles named in SKIP (dismissed) are
// never suggested.
std::optional<Suggestion> suggest_profile(const ProfileStore& store, bool include_user,
                                          const ResolvedProfile& active, const DetectContext& ctx,
                                          const std::set<std::string>& skip = {});

}  // namespace lash::policy
