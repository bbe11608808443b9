#include "builtins/profile_user.h"

#include <climits>
#include <cstdlib>

namespace lash::builtins {

namespace {

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}

// Whether SHELL is lash: this very binary, or one named lash. A login whose shell is
// another one runs no profile at all, which the administrator must be told.
const char* shell_kind(const std::string& shell) {
  std::string real = real_path(shell);
  if (!real.empty() && real == real_path("/proc/self/exe")) return "this lash";
  std::string base = shell.substr(shell.rfind('/') + 1);
  if (base == "lash" || base == "-lash") return "lash";
  return "not lash: a login of this user runs under no lash profile";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool may_switch(const policy::Selection& sel) {
  return sel.profile && sel.profile->values.profile_switch.value;
}

// Where the choice came from, as one sentence.
std::string origin_text(const policy::Selection& sel) {
  switch (sel.origin) {
    case policy::Origin::assigned:
      return std::string("assigned by ") + sel.where +
             (may_switch(sel) ? "; the user may choose another (profile_switch = true)"
                              : "; the user cannot choose another (profile_switch = false)");
    case policy::Origin::fallback:
      return "the built-in 'restricted' in place of what " + (sel.where.empty() ? std::string("lash.conf") : sel.where) +
             " assigns (see the warning); the user cannot choose another";
    case policy::Origin::config:
      return "not assigned by lash.conf: the user's own default from " + sel.where +
             " (the user may choose another with -p or LASH_PROFILE)";
    default:
      return "not assigned by lash.conf: the built-in default (the user may choose another with -p, "
             "LASH_PROFILE or ~/.lash/config)";
  }
}

// An array element: put_string's escaping, without its "escaped" list.
std::string text(const std::string& s) { return policy::valid_utf8(s) ? s : policy::escape_bytes(s); }

}  // namespace

std::string user_selection_text(const policy::Account& acc, const policy::Selection& sel) {
  std::string s = "user:     " + acc.name + " (uid " + std::to_string(acc.uid) + "; groups: " + join(acc.groups) + ")\n";
  s += "shell:    " + (acc.shell.empty() ? std::string("(none)") : acc.shell) + " (" + shell_kind(acc.shell) + ")\n";
  s += "profile:  " + (sel.profile ? sel.profile->name : std::string("?")) + ": " + origin_text(sel) + "\n";
  for (const auto& w : sel.warnings) s += "warning:  " + w + (w.empty() || w.back() != '\n' ? "\n" : "");
  return s + "\n";
}

policy::Json user_selection_json(const policy::Account& acc, const policy::Selection& sel) {
  policy::Json j = policy::Json::object();
  policy::put_string(j, "name", acc.name);
  j["uid"] = acc.uid;
  policy::Json groups = policy::Json::array();
  for (const auto& g : acc.groups) groups.push_back(text(g));
  j["groups"] = groups;
  policy::put_string(j, "home", acc.home);
  policy::put_string(j, "shell", acc.shell);
  j["shell_is_lash"] = std::string(shell_kind(acc.shell)).rfind("not", 0) != 0;
  policy::put_string(j, "profile", sel.profile ? sel.profile->name : std::string());
  j["origin"] = std::string(policy::origin_name(sel.origin));
  policy::put_string(j, "where", sel.where);
  j["assigned"] = sel.assigned;
  j["may_switch"] = may_switch(sel);
  policy::Json warnings = policy::Json::array();
  for (const auto& w : sel.warnings) warnings.push_back(text(w));
  j["warnings"] = warnings;
  return j;
}

}  // namespace lash::builtins
