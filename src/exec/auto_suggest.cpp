// profile.auto_detect in a session (policy/auto_detect.h has the rules): one line on
// stderr at the start of an interactive session, and again when `cd` enters another
// repository root. A suggestion is never a switch; `profile dismiss NAME` stops it for
// the rest of the session.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "exec/session.h"
#include "exec/shell.h"
#include "policy/auto_detect.h"
#include "policy/session_select.h"
#include "policy/user_config.h"

namespace lash::exec {

namespace {

void suggest_for(Session& s, const std::string& dir) {
  policy::DetectContext ctx;
  ctx.getenv = [](const char* n) { return static_cast<const char*>(::getenv(n)); };
  ctx.start_dir = dir;
  ctx.home = s.env.home;
  ctx.remote_hosts = policy::git_remote_hosts(dir);
  ctx.container = policy::container_kind(ctx.getenv);
  auto sug = policy::suggest_profile(policy::session_search_path(), !s.selection.assigned, *s.active, ctx,
                                     s.dismissed);
  if (!sug) return;
  s.last_suggestion = sug->profile;
  const char* p = sug->profile.c_str();
  // Without profile_switch this session cannot follow it: a new session can.
  if (s.active->values.profile_switch.value)
    std::fprintf(stderr, "lash: this looks like a context for profile '%s' (%s); 'profile switch %s' (or 'profile dismiss %s')\n",
                 p, sug->rule.c_str(), p, p);
  else
    std::fprintf(stderr, "lash: this looks like a context for profile '%s' (%s); 'lash -p %s' (or 'profile dismiss %s')\n",
                 p, sug->rule.c_str(), p, p);
}

}  // namespace

void suggest_at_start(Shell&) {
  Session* s = current_session();
  if (!s || !s->active) return;
  auto on = policy::config_value("profile.auto_detect");
  s->auto_detect = on && on->value == "true";
  if (!s->auto_detect) return;
  s->detect_root = policy::repository_root(s->env.start_dir);
  suggest_for(*s, s->env.start_dir);
}

void suggest_after_cd(Shell& sh) {
  Session* s = current_session();
  if (!s || !s->auto_detect || !s->active || !sh.opt.interactive) return;
  const std::string* pwd = sh.vars.get("PWD");
  if (!pwd) return;
  std::string root = policy::repository_root(*pwd);
  if (root == s->detect_root) return;  // the same repository, or still none
  s->detect_root = root;
  if (!root.empty()) suggest_for(*s, *pwd);
}

Result<std::string> dismiss_suggestion(const std::optional<std::string>& name) {
  Session* s = current_session();
  if (!s) return Error{"no session", {}, 0, {}};
  std::string n = name ? *name : s->last_suggestion;
  if (n.empty()) return Error{"nothing was suggested in this session (profile dismiss NAME)", {}, 0, {}};
  s->dismissed.insert(n);
  if (n == s->last_suggestion) s->last_suggestion.clear();
  return n;
}

}  // namespace lash::exec
