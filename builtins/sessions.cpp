// The `session` builtin (cli.md): `session list [--json]` and `session kill ID`,
// gated by session_manage (checked by the policy gate before the builtin runs,
// audited, planned by `profile test`). A user sees and kills their own sessions; root
// sees and kills everyone's.
#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "builtins/families.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "sandbox/session_registry.h"

namespace lash::builtins {
using exec::Shell;
namespace reg = sandbox::registry;

namespace {

std::string user_of(uid_t uid) {
  struct passwd pw, *res = nullptr;
  char buf[4096];
  if (::getpwuid_r(uid, &pw, buf, sizeof buf, &res) == 0 && res) return res->pw_name;
  return std::to_string(uid);
}

std::string age_text(int64_t seconds) {
  if (seconds < 0) seconds = 0;
  char b[32];
  if (seconds < 3600) std::snprintf(b, sizeof b, "%lldm%02llds", (long long)(seconds / 60), (long long)(seconds % 60));
  else if (seconds < 86400) std::snprintf(b, sizeof b, "%lldh%02lldm", (long long)(seconds / 3600), (long long)(seconds % 3600 / 60));
  else std::snprintf(b, sizeof b, "%lldd%02lldh", (long long)(seconds / 86400), (long long)(seconds % 86400 / 3600));
  return b;
}

std::string own_id() {
  exec::Session* s = exec::current_session();
  return s ? s->id : "";
}

// A registry directory refused (another user's /tmp/lash-UID): an empty list must not
// look like "no other session". Said once per lash (the session's start may have).
void say_registry_warning(Shell& sh) {
  std::string w = reg::take_warning();
  if (w.empty()) return;
  sh.out().flush();
  sh.err() << w;
  sh.err().flush();
}

int session_list(Shell& sh, bool json_out) {
  bool all = ::geteuid() == 0;
  auto live = reg::list_sessions(all);
  say_registry_warning(sh);
  int64_t now = int64_t(::time(nullptr));
  std::string me = own_id();
  if (json_out) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& l : live)
      arr.push_back({{"id", l.entry.id},
                     {"pid", l.entry.pid},
                     {"user", user_of(l.entry.uid)},
                     {"uid", l.entry.uid},
                     {"profile", l.entry.profile},
                     {"tty", l.entry.tty},
                     {"started", l.entry.started},
                     {"age_seconds", now - l.entry.started},
                     {"processes", l.processes},
                     {"cpu_seconds", l.cpu_seconds},
                     {"reach", l.reach},
                     {"current", l.entry.id == me}});
    sh.out() << arr.dump(2, ' ', true, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  char line[512];
  std::snprintf(line, sizeof line, "  %-16s %-8s %-10s %-12s %-12s %8s %6s %9s\n", "ID", "PID", "USER", "PROFILE", "TTY",
                "AGE", "PROCS", "CPU");
  sh.out() << line;
  for (const auto& l : live) {
    std::string tty = l.entry.tty.empty() ? "-" : l.entry.tty;
    if (tty.rfind("/dev/", 0) == 0) tty = tty.substr(5);
    std::snprintf(line, sizeof line, "%s %-16s %-8d %-10.10s %-12.12s %-12.12s %8s %6d %8.2fs\n",
                  l.entry.id == me ? "*" : " ", l.entry.id.c_str(), int(l.entry.pid), user_of(l.entry.uid).c_str(),
                  l.entry.profile.c_str(), tty.c_str(), age_text(now - l.entry.started).c_str(), l.processes,
                  l.cpu_seconds);
    sh.out() << line;
  }
  return 0;
}

int session_kill(Shell& sh, const std::string& id) {
  if (id == own_id()) {
    sh.error("session: kill: " + id + " is this session (use 'exit')");
    return 1;
  }
  auto r = reg::kill_session(id, ::geteuid() == 0);
  say_registry_warning(sh);
  if (!r) {
    sh.error("session: kill: " + r.error().message());
    return 1;
  }
  sh.out() << "killed session " << id << " (" << *r << ")\n";
  return 0;
}

int bi_session(Shell& sh, std::vector<std::string>& argv) {
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (!args.empty() && args[0] == "list" && (args.size() == 1 || (args.size() == 2 && args[1] == "--json")))
    return session_list(sh, args.size() == 2);
  if (args.size() == 2 && args[0] == "kill") return session_kill(sh, args[1]);
  sh.error("session: usage: session list [--json] | session kill ID");
  return 2;
}

// Listing and killing sessions both need session_manage.
exec::BuiltinEffects session_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  std::string what = argv.size() > 1 ? "session " + argv[1] : "session";
  e.actions.push_back({policy::Builtin{policy::Capability::session_manage, what}});
  return e;
}

constexpr exec::BuiltinDef kSessions[] = {
    {"session", bi_session, session_effects, exec::BuiltinKind::regular, "list and kill lash sessions"},
};

}  // namespace

void register_sessions() { exec::register_builtins(kSessions); }

}  // namespace lash::builtins
