#include "exec/policy_gate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>

#include <cstring>

#include "exec/session_view.h"
#include "exec/user_files.h"
#include "exec/shell.h"
#include "policy/engine.h"
#include "policy/explain.h"
#include "policy/paths.h"
#include "policy/report.h"
#include "policy/wrapper_chain.h"
#include "sandbox/compile.h"
#include "syntax/parser.h"

namespace lash::exec {
namespace {

bool is_exported(Shell& sh, const std::string& name) {
  if (sh.vars.allexport) return true;
  const Var* v = sh.vars.find(name);
  return v && (v->flags & Var::exported);
}

// Variables the shell itself maintains: changing them is not the session's doing.
bool shell_managed(std::string_view var) { return var == "PWD" || var == "OLDPWD" || var == "OPTIND"; }

policy::RedirectMode mode_of(const PlannedRedirect& r) {
  using M = policy::RedirectMode;
  switch (r.op) {
    case ast::RedirOp::in: return M::read;
    case ast::RedirOp::append:
    case ast::RedirOp::append_err: return M::append;
    case ast::RedirOp::clobber: return M::clobber;
    case ast::RedirOp::read_write: return M::read_write;
    case ast::RedirOp::out_err: return M::write_both;
    default: return M::write;
  }
}

}  // namespace

std::string resolve_target_path(const std::string& path) {
  std::string abs = path;
  if (abs.empty() || abs[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) abs = std::string(cwd) + "/" + path;
  }
  char buf[PATH_MAX];
  if (::realpath(abs.c_str(), buf)) return buf;
  // Not there yet: resolve the directory, keep the last name.
  auto slash = abs.rfind('/');
  std::string dir = slash == 0 ? "/" : abs.substr(0, slash);
  std::string base = abs.substr(slash + 1);
  if (::realpath(dir.c_str(), buf)) {
    std::string d = buf;
    return d == "/" ? "/" + base : d + "/" + base;
  }
  return abs;
}

void add_env_action(Shell& sh, std::vector<PlannedAction>& out, const std::string& name, policy::EnvOp op,
                    bool only_if_exported) {
  if (shell_managed(name)) return;
  if (only_if_exported && !is_exported(sh, name)) return;
  out.push_back({policy::EnvChange{name, op}, false});
}

// The Spawn of NAME at REAL (its real path): for a program outside the system's
// program directories (one the job wrote, under an exec path), what its #! line runs,
// read as the session would read it (through the broker; at most the kernel's 256
// bytes of a #! line), so the engine can refuse a script whose interpreter is not
// allowed with a Problem/Suggestion rather than the kernel's bare EACCES.
policy::Spawn spawn_of(Shell& sh, const std::string& name, const std::string& real) {
  policy::Spawn s{name, real, {}};
  if (real.empty() || real[0] != '/') return s;
  for (const auto& d : sandbox::program_directories())
    if (policy::paths::beneath(real, d)) return s;
  int fd = open_user_path(sh, real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, false);
  if (fd < 0) return s;
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // a device or FIFO is no script
    ::close(fd);
    return s;
  }
  char buf[256];
  ssize_t n;
  do n = ::read(fd, buf, sizeof buf);
  while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n < 2 || buf[0] != '#' || buf[1] != '!') return s;
  policy::SessionEnv env;
  if (const Var* v = sh.vars.find("PATH")) env.path_var = v->value;
  s.interpreters = policy::shebang_programs(std::string(buf, static_cast<size_t>(n)), env);
  return s;
}

PlannedAction spawn_action(Shell& sh, const std::string& name) {
  std::string path = name.find('/') != std::string::npos ? name : sh.find_command(name);
  return {spawn_of(sh, name, path.empty() ? path : view_real_or_same(sh, path)), false};
}

std::optional<PlannedAction> loop_variable_action(Shell& sh, const std::string& name) {
  std::vector<PlannedAction> out;
  add_env_action(sh, out, name, policy::EnvOp::set, true);
  if (out.empty()) return std::nullopt;
  return std::move(out.front());
}

std::vector<PlannedAction> plan_actions(Shell& sh, const SimplePlan& p) {
  std::vector<PlannedAction> out;
  if (p.kind == SimplePlan::Kind::assignments_only) {
    if (p.deferred_assigns)
      for (const auto& a : *p.deferred_assigns) add_env_action(sh, out, a.name, policy::EnvOp::set, true);
    for (const auto& [n, v] : p.assigns) add_env_action(sh, out, n, policy::EnvOp::set, true);
  } else {
    // VAR=v cmd: the command's environment changes.
    for (const auto& [n, v] : p.assigns) add_env_action(sh, out, n, policy::EnvOp::set, false);
  }
  switch (p.kind) {
    case SimplePlan::Kind::external:
      out.push_back({spawn_of(sh, p.argv[0], view_real_or_same(sh, p.path)), p.dynamic_name});
      break;
    case SimplePlan::Kind::not_found:
      // Nothing runs: the shell says "not found" (127), as any shell. A dry run cannot
      // know that: the script may create the program before it gets there.
      if (sh.dry) out.push_back({policy::Spawn{p.argv[0], ""}, true});
      break;
    case SimplePlan::Kind::builtin:
    case SimplePlan::Kind::special_builtin: {
      // What the builtin declares beside itself (builtins/*.cpp), parsed as it parses.
      BuiltinEffects e = p.builtin->effects(sh, p.argv);
      for (auto& a : e.actions) out.push_back(std::move(a));
      break;
    }
    default: break;
  }
  for (const auto& r : p.redirects)
    if (r.kind == PlannedRedirect::Kind::open)
      out.push_back({policy::Redirect{view_target_path(sh, r.path), mode_of(r)}, r.dynamic});
  return out;
}

namespace {
// A denial the session decides outside the engine (no profile key decides it).
policy::Decision session_denial(const char* key, const char* where, std::string problem, std::string suggestion) {
  policy::Decision d;
  d.verdict = policy::Verdict::deny;
  d.decided_by.key = key;
  d.decided_by.file = where;
  d.problem = std::move(problem);
  d.suggestion = std::move(suggestion);
  return d;
}
}  // namespace

policy::Decision sandbox_refusal_decision(const std::string& profile, const std::string& what,
                                          const std::string& reason) {
  return session_denial("sandbox", "this machine",
                        "This session (profile: " + profile + ") cannot " + what + " without its sandbox.", reason);
}

void report_sandbox_refusal(Shell& sh, const std::string& what) {
  std::string profile = sh.gate ? sh.gate->profile_name : "default";
  sh.flush_all();
  write_all(2, policy::explain::refusal_lines(sandbox_refusal_decision(profile, what, sh.services().refusal())));
}

policy::Decision audit_failure_decision(const std::string& profile, const std::string& what,
                                        const std::string& cause) {
  return session_denial(
      "audit", "this session",
      "This session (profile: " + profile + ") cannot " + what + ": its audit log cannot be written (" + cause + ").",
      "lash runs no more of this session's programs or redirections once it cannot record them. Make the audit log "
      "writable again (disk space, file-size limit, the file itself) and start a new session.");
}

namespace {

// What a program or redirection action is called in a refusal; "" for other actions
// (builtins, variables), which the shell runs without opening or starting anything.
std::string audited_what(const policy::Action& a) {
  if (const auto* s = std::get_if<policy::Spawn>(&a)) return "run '" + s->argv0 + "'";
  if (const auto* r = std::get_if<policy::Redirect>(&a)) return "open '" + r->path + "'";
  return "";
}

// Fail closed on a broken audit log: true (and the refusal printed) when ACTION is
// a program or a redirection and the log can no longer be written.
bool refused_for_audit(Shell& sh, const policy::Action& action) {
  if (!sh.gate->audit_failure) return false;
  std::string cause = sh.gate->audit_failure();
  if (cause.empty()) return false;
  std::string what = audited_what(action);
  if (what.empty()) return false;
  sh.flush_all();
  write_all(2, policy::explain::refusal_lines(audit_failure_decision(sh.gate->profile_name, what, cause)));
  return true;
}

}  // namespace

std::vector<CheckedAction> check(const std::vector<PlannedAction>& actions, const policy::Engine& engine) {
  std::vector<CheckedAction> out;
  out.reserve(actions.size());
  for (const auto& a : actions) {
    CheckedAction c{a, engine.decide(a.action)};
    // Only known at run time: neither allowed nor denied by the dry run (cli.md).
    if (a.dynamic || a.at_run_time) c.decision = policy::dynamic_decision();
    out.push_back(std::move(c));
  }
  return out;
}

const policy::Engine& PolicyGate::engine() {
  if (!built) built = make_engine();
  return *built;
}

namespace {
// A decision taken: its audit record (unless KEEP_RECORD, a spawn's record waits for
// the process to end), and on refusal the Problem/Suggestion lines. True when allowed.
bool enforce(Shell& sh, const policy::Action& action, const policy::Decision& d, bool keep_record = false) {
  if (sh.gate->audit && !keep_record) sh.gate->audit(action, d);  // it records what monitoring asks for
  if (d.allowed() || d.advisory) return true;
  sh.flush_all();
  write_all(2, policy::explain::refusal_lines(d));
  return false;
}
}  // namespace

bool gate_allows(Shell& sh, const SimplePlan& p, std::optional<PendingSpawnRecord>* spawn_record) {
  if (!sh.gate) return true;
  std::vector<PlannedAction> actions = plan_actions(sh, p);
  for (const auto& a : actions) {
    if (a.at_run_time) continue;  // the builtin decides it as it runs (gate_allows_now)
    // Checked before the decision (nothing more is written to a broken log) and
    // again after this action's own record, whose write may be what failed.
    if (refused_for_audit(sh, a.action)) return false;
    policy::Decision d = sh.gate->engine().decide(a.action);
    bool deferred = spawn_record && d.allowed() && sh.gate->monitoring &&
                    std::holds_alternative<policy::Spawn>(a.action) && p.kind == SimplePlan::Kind::external;
    if (deferred) *spawn_record = PendingSpawnRecord{a.action, d};
    if (!enforce(sh, a.action, d, deferred)) return false;  // one refusal: nothing of this command runs
    if (refused_for_audit(sh, a.action)) return false;
  }
  return true;
}

bool gate_allows_now(Shell& sh, const policy::Action& action) {
  if (!sh.gate) return true;
  if (refused_for_audit(sh, action)) return false;
  if (!enforce(sh, action, sh.gate->engine().decide(action))) return false;
  return !refused_for_audit(sh, action);
}

bool gate_allows_env(Shell& sh, const std::string& name, policy::EnvOp op) {
  if (!sh.gate || shell_managed(name)) return true;
  policy::Action action = policy::EnvChange{name, op};
  policy::Decision d = sh.gate->engine().decide(action);
  if (d.allowed()) return true;
  if (sh.gate->audit) sh.gate->audit(action, d);
  sh.flush_all();
  write_all(2, policy::explain::refusal_lines(d));
  return false;
}

}  // namespace lash::exec
