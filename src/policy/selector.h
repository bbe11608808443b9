// Which profile a session runs under (profiles.md "Selection"), as a function of plain
// inputs so every rule is unit-testable; session_select.h gathers the real inputs.
//
// 1. <system_dir>/lash.conf assigns a profile to the user, else to one of the user's
//    groups (ignored with a warning when it or its directory is not root-owned or is
//    writable by others). An assigned profile is mandatory and its chain is loaded
//    without the user directory; -p / LASH_PROFILE may name another profile only if the
//    assigned one has profile_switch = true (otherwise that request is an error).
//    An assigned profile that cannot be loaded - or a lash.conf that does not parse -
//    falls back to the built-in `restricted`, with a warning.
// 2. -p NAME   3. LASH_PROFILE   4. `[profile] default` in $LASH_HOME/config   5. default
// A requested profile (2-5) that cannot be loaded is an error: the caller exits 2.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "policy/profile_model.h"
#include "policy/store.h"

namespace lash::policy {

struct SystemPolicyFile {
  std::string path;
  std::string text;
  std::string untrusted;  // non-empty: why the file is ignored
  std::string error;      // non-empty: it exists but cannot be read (treated as invalid)
};

struct SelectInputs {
  std::function<std::string()> user_name;                 // asked only with a lash.conf
  std::function<std::vector<std::string>()> group_names;  // asked only when needed
  std::optional<std::string> cli;                         // -p / --profile
  std::optional<std::string> env;                         // LASH_PROFILE; empty = unset
  std::optional<SystemPolicyFile> system;                 // nullopt: no lash.conf
  std::string config_path;                                // $LASH_HOME/config
  std::function<Result<std::optional<std::string>>()> read_config;  // read when needed
};

enum class Origin : uint8_t { assigned, fallback, cli, env, config, builtin_default };
std::string_view origin_name(Origin o);

struct Selection {
  std::shared_ptr<const ResolvedProfile> profile;
  Origin origin = Origin::builtin_default;
  std::string where;          // "-p", "LASH_PROFILE", "FILE:LINE", "default"
  bool assigned = false;      // the chain was loaded without the user directory
  std::string assigned_name;  // what lash.conf assigned, if anything
  std::vector<std::string> warnings;  // for stderr; a fallback also needs an audit record
};

Result<Selection> select_profile(const SelectInputs& in, const ProfileStore& store);

// `[profile] default = NAME` of $LASH_HOME/config (other sections belong to other parts
// of lash and are not checked here). nullopt when not set.
Result<std::optional<std::pair<std::string, int>>> config_default_profile(
    std::string_view text, const std::string& file);

}  // namespace lash::policy
