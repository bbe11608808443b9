#include "policy/system_policy.h"
#include "policy/user_config.h"

#include <sys/stat.h>

#include <algorithm>

#include "policy/ini_loader.h"
#include "policy/validate.h"

namespace lash::policy {
namespace {

// Portable user and group names (POSIX plus the '$' that machine accounts end with).
bool is_account_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || s[0] == '-') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || (c == '$' && i + 1 == s.size());
    if (!ok) return false;
  }
  return true;
}

}  // namespace

Result<SystemPolicy> parse_system_policy(std::string_view text, const std::string& file) {
  Diags diags;
  auto doc = read_ini(text, file, diags);
  // A duplicate key is a soft error of read_ini (the document comes back so a profile
  // can report every error at once); here any error makes the file invalid.
  if (!doc || !diags.empty()) return to_error(diags);
  SystemPolicy out;
  out.file = file;
  for (const auto& sec : doc->sections) {
    bool groups = sec.name == "groups";
    // The system side of the config keys (user_config.h), checked there.
    if (is_config_section(sec.name)) continue;
    if (sec.name != "users" && !groups) {
      std::string msg = "unknown section (expected [users] or [groups])";
      if (auto near = nearest(sec.name, {"users", "groups"}); !near.empty())
        msg += "; did you mean [" + near + "]?";
      diags.push_back(Diag{file, sec.line, "[" + sec.name + "]", msg});
      continue;
    }
    for (const auto& e : sec.entries) {
      if (!e.continuations.empty()) {
        diags.push_back(Diag{file, e.continuations.front().line, e.key,
                             "indented lines continue the previous key; remove the indentation"});
        continue;
      }
      if (!is_account_name(e.key)) {
        diags.push_back(Diag{file, e.line, e.key,
                             std::string("invalid ") + (groups ? "group" : "user") + " name"});
        continue;
      }
      auto name = validate::profile_name(e.value);
      if (!name) {
        diags.push_back(Diag{file, e.line, e.key, name.error().what});
        continue;
      }
      (groups ? out.groups : out.users).push_back(Assignment{e.key, groups, *name, e.line});
    }
  }
  if (!diags.empty()) return to_error(diags);
  return out;
}

std::optional<Assignment> assignment_for(const SystemPolicy& policy, std::string_view user,
                                         const std::vector<std::string>& groups) {
  for (const auto& a : policy.users)
    if (a.who == user) return a;
  for (const auto& a : policy.groups)
    if (std::find(groups.begin(), groups.end(), a.who) != groups.end()) return a;
  return std::nullopt;
}

std::string trust_problem(const std::string& file, const FileFacts& file_st,
                          const std::string& dir, const FileFacts& dir_st) {
  auto check = [](const std::string& what, const FileFacts& st) -> std::string {
    if (st.uid != 0) return what + " is not owned by root";
    if (st.mode & (S_IWGRP | S_IWOTH)) return what + " is writable by users other than root";
    return {};
  };
  if (auto p = check(dir, dir_st); !p.empty()) return p;
  return check(file, file_st);
}

}  // namespace lash::policy
