// The system policy file <system_dir>/lash.conf: which profile each user (or group) is
// assigned. Format (INI, same reader and limits as profiles):
//
//   [users]
//   alice = ci            ; user name = profile name
//   [groups]
//   developers = script   ; group name = profile name; the first matching line wins
//
// A user entry wins over any group entry. It is only honoured when the file and its
// directory are owned by root and writable by nobody else (trust_problem()).
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace lash::policy {

struct Assignment {
  std::string who;  // user or group name
  bool group = false;
  std::string profile;
  int line = 0;
};

struct SystemPolicy {
  std::string file;
  std::vector<Assignment> users, groups;  // in file order
};

Result<SystemPolicy> parse_system_policy(std::string_view text, const std::string& file);

// The assignment for USER (or the first group in file order that GROUPS contains).
std::optional<Assignment> assignment_for(const SystemPolicy& policy, std::string_view user,
                                         const std::vector<std::string>& groups);

// Ownership and mode of a file or directory, from stat().
struct FileFacts {
  uid_t uid = 0;
  mode_t mode = 0;
};
// Why lash.conf may not be trusted, or empty when it may: the file and its directory must
// be owned by root and not writable by group or others.
std::string trust_problem(const std::string& file, const FileFacts& file_st,
                          const std::string& dir, const FileFacts& dir_st);

}  // namespace lash::policy
