// Simple commands: plan (expand, resolve, expand redirections), then run the plan
// as assignments, a builtin, a function or an external program.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/strutil.h"
#include "exec/interp.h"
#include "exec/launch_plan.h"
#include "base/fileio.h"
#include "base/status.h"
#include "exec/plan.h"
#include "exec/policy_gate.h"
#include "exec/redirect.h"
#include "exec/session_view.h"
#include "exec/shell.h"
#include "policy/explain.h"
#include "sandbox/launch.h"

namespace lash::exec {

// limit_kill.cpp: says which profile limit killed a program (status 152, 153).
void report_limit_kill(Shell& sh, const std::string& program, int status);

namespace {

}  // namespace

std::string trace_prefix(Shell& sh) {
  const std::string* ps4 = sh.vars.get("PS4");
  std::string raw = ps4 ? *ps4 : "+ ";
  // A command substitution in PS4 is traced with PS4 as it is, not expanded again.
  static bool expanding = false;
  if (!sh.trace_prefix || expanding) return raw;
  expanding = true;
  std::string out;
  try {
    out = sh.trace_prefix(raw);
  } catch (...) {
    expanding = false;
    throw;
  }
  expanding = false;
  return out;
}

namespace {

void xtrace(Shell& sh, const SimplePlan& p) {
  std::string line = trace_prefix(sh);
  bool first = true;
  for (auto& [n, v] : p.assigns) {
    if (!first) line += ' ';
    line += n + "=" + str::shell_quote(v);
    first = false;
  }
  for (auto& a : p.argv) {
    if (!first) line += ' ';
    line += str::shell_quote(a);
    first = false;
  }
  line += '\n';
  sh.err().flush();
  write_all(2, line);
}

// Resolves argv[0] in POSIX order: special builtins, functions, regular builtins,
// then PATH. `skip_functions` is `command NAME`.
void resolve(Shell& sh, SimplePlan& p, bool skip_functions) {
  const std::string& name = p.argv[0];
  if (name.find('/') != std::string::npos) {
    // A path to nothing is not found (127), as for a name PATH does not hold, not a
    // program for the policy to refuse. (Whether a path exists is no secret from the
    // session: `test -e` tells it too.) What the session cannot see is missing
    // (session_view.h): 126 against 127 would tell what another process's
    // /proc/PID/cwd holds.
    struct stat st;
    bool missing = view_hides(sh, name) || (::stat(name.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR));
    p.kind = missing ? SimplePlan::Kind::not_found : SimplePlan::Kind::external;
    p.path = missing ? std::string() : name;
    return;
  }
  const BuiltinDef* b = find_builtin(name);
  if (b && b->kind == BuiltinKind::special) {
    p.kind = SimplePlan::Kind::special_builtin;
    p.builtin = b;
    return;
  }
  if (!skip_functions) {
    auto it = sh.functions.find(name);
    if (it != sh.functions.end()) {
      p.kind = SimplePlan::Kind::function;
      p.function = it->second;
      return;
    }
  }
  if (b) {
    p.kind = SimplePlan::Kind::builtin;
    p.builtin = b;
    return;
  }
  // A PATH=... prefix applies to the search for this command.
  const std::string* path_override = nullptr;
  for (auto& [n, v] : p.assigns)
    if (n == "PATH") path_override = &v;
  p.path = path_override ? sh.find_command_in(name, *path_override) : sh.find_command(name);
  p.kind = p.path.empty() ? SimplePlan::Kind::not_found : SimplePlan::Kind::external;
}

bool plan_simple(Shell& sh, const ast::SimpleCommand& sc, SimplePlan& p, bool skip_functions) {
  sh.expand_words(sc.words, p.argv);
  if (!plan_redirects(sh, sc.redirects, p.redirects)) return false;
  if (sc.words.empty()) {
    // Plain assignments are expanded and made one at a time, left to right
    // (a=1 b=$a sets b to 1), when the command runs.
    p.kind = SimplePlan::Kind::assignments_only;
    p.deferred_assigns = &sc.assignments;
    return true;
  }
  p.assigns.reserve(sc.assignments.size());
  for (const auto& a : sc.assignments) p.assigns.emplace_back(a.name, sh.expand_string(a.value));
  if (p.argv.empty()) {
    p.kind = SimplePlan::Kind::assignments_only;
    return true;
  }
  resolve(sh, p, skip_functions);
  return true;
}

int flush_builtin_output(Shell& sh, int st, const std::string& name) {
  bool ok = sh.out().flush();
  sh.err().flush();
  sh.out().clear_error();
  sh.err().clear_error();
  if (!ok) {
    sh.error(name + ": write error: " + std::strerror(errno ? errno : EIO));
    return st == 0 ? 1 : st;
  }
  return st;
}

// Temporary assignments for a regular builtin or function: visible (and exported)
// while it runs, restored afterwards.
struct TempAssigns {
  Shell& sh;
  bool active = false;
  TempAssigns(Shell& s, const SimplePlan& p) : sh(s) {
    if (p.assigns.empty()) return;
    active = true;
    sh.vars.push_scope();
    for (auto& [n, v] : p.assigns) {
      sh.vars.make_local(n);
      if (!sh.vars.set(n, v, true)) {
        if (sh.vars.last_refused) throw Refused{};
        throw FatalError{n + ": is read only", 2};
      }
    }
  }
  ~TempAssigns() {
    if (active) sh.vars.pop_scope();
  }
};

bool any_trap_set(const Shell& sh) {
  for (int i = 0; i < NSIG; ++i)
    if (sh.trap_set[i] && !sh.traps[i].empty()) return true;
  return false;
}

// A file that execve refused with ENOEXEC is a script for this shell, run in this
// process (which was to become the program, its redirections already in place).
[[noreturn]] void run_as_script(Shell& sh, const SimplePlan& p) {
  std::string text;
  if (int err = read_whole_file(p.path, text)) {
    sh.error(p.argv[0] + ": " + std::strerror(err));
    sh.child_exit(126);
  }
  if (text.find('\0') != std::string::npos && text.find('\0') < 4096) {
    sh.error(p.argv[0] + ": cannot execute binary file");
    sh.child_exit(126);
  }
  // As if a new shell had been started on the file: no functions, aliases or
  // traps of ours, only the exported variables.
  sh.functions.clear();
  sh.aliases.clear();
  for (auto& n : sh.vars.names()) {
    const Var* v = sh.vars.find(n);
    if (v && !(v->flags & (Var::exported | Var::readonly))) sh.vars.unset(n);
  }
  for (auto& [n, v] : p.assigns) sh.vars.set(n, v, true);  // the program's environment
  sh.arg0 = p.argv[0];
  sh.params.assign(p.argv.begin() + 1, p.argv.end());
  sh.opt = Options{};
  sh.vars.allexport = false;
  int st;
  try {
    st = sh.run_text(text, p.path);
  } catch (const FatalError& e) {
    st = e.status;
  }
  sh.child_exit(st);
}

std::vector<std::string> child_env(Shell& sh, const SimplePlan& p) {
  if (sh.gate && sh.gate->child_env) {
    // The profile's deny / force / pass apply to everything, prefixes included.
    std::vector<std::string> exported = sh.vars.environment();
    for (const auto& assign : p.assigns) {
      const std::string& n = assign.first;  // (a lambda cannot capture a structured binding in clang 14)
      std::erase_if(exported, [&](const std::string& e) {
        return e.size() > n.size() && e[n.size()] == '=' && e.compare(0, n.size(), n) == 0;
      });
      exported.push_back(n + "=" + assign.second);
    }
    return sh.gate->child_env->build(exported, sh.gate->always_env);
  }
  const auto& base = sh.vars.environment();
  if (p.assigns.empty()) return base;
  std::vector<std::string> env;
  env.reserve(base.size() + p.assigns.size());
  for (auto& e : base) {
    bool overridden = false;
    for (auto& [n, v] : p.assigns)
      if (e.size() > n.size() && e[n.size()] == '=' && e.compare(0, n.size(), n) == 0) overridden = true;
    if (!overridden) env.push_back(e);
  }
  for (auto& [n, v] : p.assigns) env.push_back(n + "=" + v);
  return env;
}

// "NAME: not found", and under monitoring an audit record of the attempt.
void report_not_found(Shell& sh, const std::string& name) {
  sh.error(name + ": not found");
  if (sh.gate && sh.gate->audit_not_found) sh.gate->audit_not_found(name);
}

int report_launch_failure(Shell& sh, const SimplePlan& p, const sandbox::LaunchFailure& f,
                          const std::vector<sandbox::FdOp>& ops) {
  using S = sandbox::ChildStep;
  switch (f.step) {
    case S::exec:
      if (f.err == ENOENT) {
        report_not_found(sh, p.argv[0]);
        return 127;
      }
      sh.error(p.argv[0] + ": " + std::strerror(f.err));
      return 126;
    case S::fd_open:
      if (f.fd_op_index >= 0 && size_t(f.fd_op_index) < ops.size()) {
        PlannedRedirect r;
        r.path = ops[size_t(f.fd_op_index)].path;
        r.flags = ops[size_t(f.fd_op_index)].flags;
        sh.error(redirect_error(r, f.err));
      } else {
        sh.error(std::string("cannot open redirection: ") + std::strerror(f.err));
      }
      return 2;
    case S::fd_dup:
    case S::fd_close:
      sh.error(std::string("redirection failed: ") + std::strerror(f.err));
      return 2;
    case S::none: break;
    default:
      // Any sandbox step that failed in the child: refused, never run unsandboxed.
      sh.error(p.argv[0] + ": sandbox could not be applied: " + std::strerror(f.err));
      return 126;
  }
  return 0;
}

// A sandbox closes every fd above 2 in the child; the fds the script itself opened
// (exec 3>file: 3-9, not close-on-exec) are what a plain shell would pass on, so
// they are passed explicitly, as N>&N steps.
void pass_user_fds(Shell& sh, std::vector<sandbox::FdOp>& ops) {
  if (!sh.prepared().close_fds) return;  // nothing is closed
  for (int fd = 3; fd <= 9; ++fd) {
    int flags = ::fcntl(fd, F_GETFD);
    if (flags < 0 || (flags & FD_CLOEXEC)) continue;
    bool targeted = false;
    for (const auto& op : ops)
      if (op.fd == fd) targeted = true;
    if (!targeted) ops.insert(ops.begin(), {sandbox::FdOp::Kind::dup, fd, {}, 0, fd});
  }
  // The pipes of process substitutions the command names (/dev/fd/N, N >= 60).
  for (int fd : sh.procsub_fds) ops.insert(ops.begin(), {sandbox::FdOp::Kind::dup, fd, {}, 0, fd});
  // The script's named descriptors ({name}>file, fd >= 10).
  for (int fd : named_fds())
    if (::fcntl(fd, F_GETFD) >= 0) ops.insert(ops.begin(), {sandbox::FdOp::Kind::dup, fd, {}, 0, fd});
}

// The one spawn spec of a program, for every way it starts (a command, a tail exec
// in a subshell or pipeline member, the `exec` builtin): what it runs, with which
// environment, and its descriptors. Returns false after printing a redirection error.
bool build_spawn_spec(Shell& sh, const CheckedPlan& cp, sandbox::SpawnSpec& spec, std::vector<unique_fd>& keep) {
  const SimplePlan& p = cp.plan();
  spec.path = p.path;
  spec.argv = p.argv;
  spec.file_size_hard = sh.script_file_size_hard;
  spec.envp = child_env(sh, p);
  if (!redirects_to_fd_ops(sh, p.redirects, spec.fd_ops, keep)) return false;
  pass_user_fds(sh, spec.fd_ops);
  return true;
}

// Writes the deferred audit record of an allowed program with its pid and status.
void record_process(Shell& sh, const std::optional<PendingSpawnRecord>& rec, pid_t pid, int st) {
  if (rec && sh.gate && sh.gate->audit_process) sh.gate->audit_process(rec->action, rec->decision, pid, st);
}

// The one function for ENOEXEC: the file is a script for this shell. In place, this
// process runs it; otherwise a fork of the shell with the command's redirections.
int run_noexec(Shell& sh, const SimplePlan& p, bool in_place) {
  if (in_place) run_as_script(sh, p);
  pid_t pid = fork_subshell(sh, [] {}, [&]() -> int {
    FdSaver saver;
    if (!apply_redirects(sh, p.redirects, saver)) return 2;
    saver.keep();
    run_as_script(sh, p);
  });
  if (pid < 0) return pid == kForkRefused ? status::refused : 2;
  return sh.wait_pid(pid);
}

// The Spawn action of a plan that starts a program, as the engine and `profile test`
// see it (its real path), for the audit of a refusal the check did not make.
policy::Action spawn_action(Shell& sh, const SimplePlan& p) {
  if (sh.gate)
    for (auto& a : plan_actions(sh, p))
      if (std::holds_alternative<policy::Spawn>(a.action)) return a.action;
  return policy::Spawn{p.argv.empty() ? std::string() : p.argv[0], p.path};
}

// In place, this process becomes the program: its audit record carries this pid. A
// TERM/HUP that reached this process before now must reach the program: block them,
// act on what is pending, and let the child sequence (handlers back to default, then
// unblock) deliver anything that comes in between. Returns the mask to restore if
// execve fails.
sigset_t before_exec_in_place(Shell& sh, const CheckedPlan& cp) {
  sigset_t term_hup, old;
  sigemptyset(&term_hup);
  sigaddset(&term_hup, SIGTERM);
  sigaddset(&term_hup, SIGHUP);
  if (::sigprocmask(SIG_BLOCK, &term_hup, &old) != 0) sigemptyset(&old);  // cannot fail with a valid set
  for (int sig : {SIGTERM, SIGHUP})
    if (g_pending[sig] && !sh.trap_set[sig]) sh.exit_by_signal(sig);
  record_process(sh, cp.record(), ::getpid(), -1);
  return old;
}

}  // namespace

int launch_checked(Shell& sh, const CheckedPlan& cp, bool in_place) {
  const SimplePlan& p = cp.plan();
  sandbox::SpawnSpec spec;
  std::vector<unique_fd> keep;
  if (!build_spawn_spec(sh, cp, spec, keep)) return 2;
  sh.out().flush();
  sh.err().flush();
  if (in_place) {
    sigset_t old = before_exec_in_place(sh, cp);
    sandbox::LaunchFailure f = sandbox::exec_in_place(sh.prepared(), spec);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    if (f.step == sandbox::ChildStep::exec && f.err == ENOEXEC) return run_noexec(sh, p, true);
    return report_launch_failure(sh, p, f, spec.fd_ops);
  }
  if (sh.at_process_limit()) {
    policy::Action action = spawn_action(sh, p);
    sh.refuse_at_process_limit("run '" + p.argv[0] + "'", &action);
    return status::refused;
  }
  spec.pgid = job_fork_pgid(sh);
  // Interactive without job control (the profile refuses job_control_own): ^Z must
  // not stop a program the shell could not resume.
  if (sh.opt.interactive && !sh.opt.monitor && !sh.in_subshell) spec.ignore_signals.push_back(SIGTSTP);
  spec.foreground_tty = job_fork_tty(sh);
  auto r = sandbox::launch(sh.prepared(), spec);
  keep.clear();
  if (!r.ok()) {
    sh.error(p.argv[0] + ": " + r.error().message());
    return 126;
  }
  sh.child_started(r->pid);
  if (r->pid > 0) job_process_started(sh, r->pid);
  if (r->failure.step != sandbox::ChildStep::none) {
    if (r->pid > 0) sh.wait_pid(r->pid);
    if (r->failure.step == sandbox::ChildStep::exec && r->failure.err == ENOEXEC) return run_noexec(sh, p, false);
    if (r->failure.step == sandbox::ChildStep::exec && r->failure.err == ENOENT &&
        p.argv[0].find('/') == std::string::npos && sh.hashed.count(p.argv[0])) {
      // A remembered location that went away: search PATH again, once. Another
      // file is another program: checked afresh.
      sh.hashed.erase(p.argv[0]);
      SimplePlan again = p;
      again.path = sh.find_command(p.argv[0]);
      // The same file again (it is there, but its #! interpreter or ELF loader is
      // not): the failure stands, or this would start it over and over.
      if (!again.path.empty() && again.path != p.path) {
        Checked c = check_plan(sh, again);
        if (!c.allowed) return status::refused;
        if (c.launch) return launch_checked(sh, *c.launch, false);
      }
    }
    return report_launch_failure(sh, p, r->failure, spec.fd_ops);
  }
  int st = sh.wait_pid(r->pid);
  record_process(sh, cp.record(), r->pid, st);
  report_limit_kill(sh, p.argv[0], st);
  return st;
}

namespace {

// `exec` with a command: the checked program replaces the shell.
int run_exec_builtin(Shell& sh, SimplePlan& p, const std::optional<CheckedPlan>& target) {
  // `exec` without a command makes its redirections permanent.
  if (p.argv.size() == 1) {
    FdSaver saver(/*permanent=*/true);
    if (!apply_redirects(sh, p.redirects, saver)) {
      if (!sh.opt.interactive) throw FatalError{"", 2};
      return 2;
    }
    saver.keep();
    for (auto& [n, v] : p.assigns) sh.assign(n, v);
    return 0;
  }
  if (!target) {
    std::string name = p.argv[1] == "--" && p.argv.size() > 2 ? p.argv[2] : p.argv[1];
    if (name == "--") return 0;
    report_not_found(sh, name);
    sh.exit_shell(127);
  }
  int st = launch_checked(sh, *target, /*in_place=*/true);
  sh.exit_shell(st ? st : 126);
}

// The program `exec ARGS` runs: ARGS without a leading --, its path, the command's
// assignments and redirections. Empty argv: nothing to run.
SimplePlan exec_target(Shell& sh, const SimplePlan& p) {
  SimplePlan target;
  target.kind = SimplePlan::Kind::external;
  target.argv.assign(p.argv.begin() + 1, p.argv.end());
  if (!target.argv.empty() && target.argv[0] == "--") target.argv.erase(target.argv.begin());
  if (target.argv.empty()) return target;
  target.assigns = p.assigns;
  target.redirects = p.redirects;
  target.path = target.argv[0].find('/') != std::string::npos ? target.argv[0] : sh.find_command(target.argv[0]);
  return target;
}

bool is_exec_builtin(const SimplePlan& p) {
  return (p.kind == SimplePlan::Kind::special_builtin || p.kind == SimplePlan::Kind::builtin) && p.builtin &&
         p.builtin->name == "exec";
}

// The session cannot give the profile's sandbox here (enforce): the program P would
// start is refused, printed and audited as `profile test` reports it.
bool refused_for_sandbox(Shell& sh, const SimplePlan& p) {
  const std::string& reason = sh.services().refusal();
  if (reason.empty()) return false;
  policy::Action action = spawn_action(sh, p);
  std::string what = "run '" + std::get<policy::Spawn>(action).argv0 + "'";
  policy::Decision d = sandbox_refusal_decision(sh.gate ? sh.gate->profile_name : "default", what, reason);
  sh.services().audit(action, d);
  sh.flush_all();
  write_all(2, policy::explain::refusal_lines(d));
  return true;
}

}  // namespace

Checked check_plan(Shell& sh, const SimplePlan& p) {
  std::optional<PendingSpawnRecord> record;
  if (sh.gate && !gate_allows(sh, p, &record)) return Checked{false, std::nullopt};
  if (p.kind == SimplePlan::Kind::external) {
    if (refused_for_sandbox(sh, p)) return Checked{false, std::nullopt};
    return Checked{true, CheckedPlan(p, std::move(record))};
  }
  if (is_exec_builtin(p) && p.argv.size() > 1) {
    SimplePlan target = exec_target(sh, p);
    if (target.argv.empty() || target.path.empty()) return Checked{true, std::nullopt};  // nothing runs
    if (refused_for_sandbox(sh, target)) return Checked{false, std::nullopt};
    return Checked{true, CheckedPlan(std::move(target), std::move(record))};
  }
  return Checked{true, std::nullopt};
}

namespace {

// Runs F while this command's redirections are in place: an error that ends the
// shell is printed now, to the stderr the command redirected (`. ./gone 2>/dev/null`
// prints nothing, as in dash), not after the redirections are undone.
template <class F>
int with_redirected_errors(Shell& sh, const SimplePlan& p, F f) {
  try {
    return f();
  } catch (FatalError& e) {
    if (!p.redirects.empty() && !e.message.empty()) {
      sh.error(e.message);
      e.message.clear();
    }
    throw;
  }
}

}  // namespace

bool Interp::plan(Shell& sh, const ast::SimpleCommand& sc, SimplePlan& p, bool& via_command) {
  if (!plan_simple(sh, sc, p, false)) return false;
  if (sh.dry && !sc.words.empty()) {
    auto literal = [](const ast::Word& w) { return w.parts.size() == 1 && std::holds_alternative<ast::Literal>(w.parts[0].v); };
    p.dynamic_name = !literal(sc.words[0]);
    // `command` and `exec` run their operand: one only the run knows is a dynamic name.
    // Not `command -v`/`-V` (given literally), which only looks names up.
    auto lookup_only = [&]() {
      if (p.argv[0] != "command") return false;
      for (size_t j = 1; j < sc.words.size() && j < p.argv.size() && literal(sc.words[j]); ++j) {
        const std::string& a = p.argv[j];
        if (a == "--" || a.size() < 2 || a[0] != '-') return false;
        if (a.find_first_of("vV") != std::string::npos) return true;
      }
      return false;
    };
    if (!p.dynamic_name && !p.argv.empty() &&
        (p.argv[0] == "command" || p.argv[0] == "exec" || p.argv[0] == "builtin") && !lookup_only())
      p.dynamic_name = !std::all_of(sc.words.begin() + 1, sc.words.end(), literal);
  }
  // `command [-p] NAME ARGS`: run NAME skipping functions (and without the special
  // properties of special builtins). -v/-V are handled by the builtin itself.
  via_command = false;
  while (!p.argv.empty() && p.argv[0] == "command" && p.argv.size() > 1 &&
         (p.argv[1] == "-p" || p.argv[1] == "--" || p.argv[1][0] != '-')) {
    p.argv.erase(p.argv.begin());
    if (p.argv[0] == "-p" || p.argv[0] == "--") p.argv.erase(p.argv.begin());
    if (p.argv.empty()) {
      p.kind = SimplePlan::Kind::assignments_only;
      break;
    }
    resolve(sh, p, true);
    via_command = true;
    if (p.kind == SimplePlan::Kind::special_builtin) p.kind = SimplePlan::Kind::builtin;
  }
  // `builtin NAME ARGS`: NAME's builtin, skipping functions; its plan is NAME's own, so
  // the gate checks what NAME does. A NAME that is no builtin runs `builtin`, which
  // says so.
  while (p.argv.size() > 1 && p.argv[0] == "builtin" && p.kind != SimplePlan::Kind::function) {
    const BuiltinDef* b = find_builtin(p.argv[1]);
    if (!b) break;
    p.argv.erase(p.argv.begin());
    p.builtin = b;
    p.kind = b->kind == BuiltinKind::special ? SimplePlan::Kind::special_builtin : SimplePlan::Kind::builtin;
  }
  return true;
}

int Interp::run_simple(Shell& sh, const ast::SimpleCommand& sc, bool tail) {
  SimplePlan p;
  bool via_command = false;
  Shell::ProcsubScope procsubs(sh);
  // bash's DEBUG trap runs before each simple command (one flag test otherwise).
  if (sh.pseudo_trap_set[Shell::kTrapDebug]) sh.run_pseudo_trap(Shell::kTrapDebug);
  sh.subst_status = 0;
  if (!plan(sh, sc, p, via_command)) {
    sh.status = 2;
    return 2;
  }
  if (sh.opt.xtrace && !(p.argv.empty() && p.assigns.empty())) xtrace(sh, p);
  // The check of exactly this plan, before anything of it runs.
  Checked checked = check_plan(sh, p);
  if (!checked.allowed) {
    sh.status = status::refused;
    return status::refused;
  }

  int st = 0;
  switch (p.kind) {
    case SimplePlan::Kind::assignments_only: {
      // Status: that of the last command substitution, if any (tracked by $?).
      int subst_status = sh.subst_status;
      FdSaver saver;
      if (!apply_redirects(sh, p.redirects, saver)) return sh.status = 2;
      for (auto& [n, v] : p.assigns)
        if (!sh.assign(n, v)) {
          if (sh.vars.last_refused) throw Refused{};
          throw FatalError{"", 2};
        }
      if (p.deferred_assigns) {
        for (const auto& a : *p.deferred_assigns) {
          if (a.subscript || a.append || a.compound) {
            sh.assign_ast(a);  // bash's forms: name[i]=v, name+=v, name=(...)
            continue;
          }
          std::string v = sh.expand_string(a.value);
          if (sh.opt.xtrace) write_all(2, trace_prefix(sh) + a.name + "=" + str::shell_quote(v) + "\n");
          if (!sh.assign(a.name, std::move(v))) {
            if (sh.vars.last_refused) throw Refused{};
            throw FatalError{"", 2};
          }
        }
        subst_status = sh.subst_status;
      }
      st = subst_status;
      break;
    }
    case SimplePlan::Kind::special_builtin: {
      if (p.builtin->name == "exec") {
        st = run_exec_builtin(sh, p, checked.launch);
        break;
      }
      FdSaver saver;
      if (!apply_redirects(sh, p.redirects, saver)) {
        if (!sh.opt.interactive) throw FatalError{"", 2};
        return sh.status = 2;
      }
      for (auto& [n, v] : p.assigns)
        if (!sh.assign(n, v)) {
          if (sh.vars.last_refused) throw Refused{};
          throw FatalError{"", 2};
        }
      st = with_redirected_errors(sh, p, [&] { return p.builtin->fn(sh, p.argv); });
      st = flush_builtin_output(sh, st, p.argv[0]);
      break;
    }
    case SimplePlan::Kind::builtin: {
      if (via_command && p.builtin->name == "exec") {
        st = run_exec_builtin(sh, p, checked.launch);
        break;
      }
      TempAssigns ta(sh, p);
      FdSaver saver;
      if (!apply_redirects(sh, p.redirects, saver)) return sh.status = 2;
      if (via_command && p.builtin->kind == BuiltinKind::special) {
        // `command` takes away the special builtin's power to end the shell.
        try {
          st = p.builtin->fn(sh, p.argv);
        } catch (const FatalError& e) {
          if (!e.message.empty()) sh.error(e.message);
          st = e.status;
        }
      } else {
        st = with_redirected_errors(sh, p, [&] { return p.builtin->fn(sh, p.argv); });
      }
      st = flush_builtin_output(sh, st, p.argv[0]);
      break;
    }
    case SimplePlan::Kind::function: {
      TempAssigns ta(sh, p);
      FdSaver saver;
      if (!apply_redirects(sh, p.redirects, saver)) return sh.status = 2;
      st = with_redirected_errors(sh, p, [&] { return sh.call_function(p.function, p.argv); });
      break;
    }
    case SimplePlan::Kind::external: {
      // The last command of a forked subshell: nothing runs after it in this process,
      // so it becomes the program (one fork per pipeline member or background
      // command, as in dash).
      bool in_place = tail && sh.in_subshell && !any_trap_set(sh);
      st = launch_checked(sh, *checked.launch, in_place);
      if (in_place) sh.child_exit(st);
      break;
    }
    case SimplePlan::Kind::not_found: {
      FdSaver saver;
      if (!apply_redirects(sh, p.redirects, saver)) return sh.status = 2;
      report_not_found(sh, p.argv[0]);
      st = 127;
      break;
    }
  }
  sh.status = st;
  return st;
}

int Shell::run_program(const std::string& path, const std::vector<std::string>& argv) {
  SimplePlan p;
  p.kind = SimplePlan::Kind::external;
  p.path = path;
  p.argv = argv;
  Checked checked = check_plan(*this, p);
  if (!checked.allowed) return status::refused;
  return launch_checked(*this, *checked.launch, /*in_place=*/false);
}

// lash itself is one of the session's processes, as the pids cgroup counts it: hence
// at_process_limit's "+ 2" (lash and the child to come).
void Shell::refuse_at_process_limit(const std::string& what, const policy::Action* action) {
  std::string profile = gate ? gate->profile_name : "default";
  policy::Decision d;
  d.verdict = policy::Verdict::deny;
  d.decided_by.key = "resources.max_processes";
  d.decided_by.file = profile;
  d.problem = "This session (profile: " + profile + ") cannot " + what +
              ": lash and its live children would exceed max_processes = " + std::to_string(max_processes) + ".";
  d.suggestion = "Wait for background jobs (`wait`) before starting more, or raise max_processes in the profile.";
  if (action) services().audit(*action, d);
  flush_all();
  write_all(2, policy::explain::refusal_lines(d));
}

int Shell::call_function(const std::shared_ptr<const ast::Command>& body, std::vector<std::string>& argv) {
  if (call_depth >= kMaxCallDepth)
    throw FatalError{argv[0] + ": function call depth limit (" + std::to_string(kMaxCallDepth) + ") reached", 2};
  // Keep the body alive even if the function redefines or unsets itself.
  std::shared_ptr<const ast::Command> keep = body;
  std::vector<std::string> saved_params(argv.begin() + 1, argv.end());
  saved_params.swap(params);
  ++call_depth;
  if (!opt.posix) frames.push_back({argv[0], source_name, line});
  ++function_depth;
  vars.push_scope();
  frame_options.emplace_back();
  struct Restore {
    Shell& sh;
    std::vector<std::string>& saved;
    ~Restore() {
      if (!sh.opt.posix && !sh.frames.empty()) sh.frames.pop_back();
      --sh.function_depth;
      if (sh.frame_options.back()) {
        sh.opt = *sh.frame_options.back();
        sh.vars.allexport = sh.opt.allexport;
      }
      sh.frame_options.pop_back();
      sh.vars.pop_scope();
      --sh.call_depth;
      sh.params.swap(saved);
    }
  } restore{*this, saved_params};
  int st = eval_command(*keep, false);
  if (ctl == Ctl::ret) {
    ctl = Ctl::none;
    st = exit_status_for_ctl;
  }
  status = st;
  if (pseudo_trap_set[kTrapReturn] && ctl != Ctl::exit) {
    run_pseudo_trap(kTrapReturn);
    status = st;
  }
  return st;
}

std::string Shell::find_command(std::string_view name, bool use_hash) {
  if (hashed_generation != vars.path_generation()) {
    hashed.clear();
    hashed_generation = vars.path_generation();
  }
  if (use_hash) {
    auto it = hashed.find(name);
    if (it != hashed.end()) return it->second;
  }
  const std::string* path = vars.get("PATH");
  std::string found = find_command_in(name, path ? std::string_view(*path) : std::string_view("/usr/local/bin:/usr/bin:/bin"));
  if (!found.empty()) hashed[std::string(name)] = found;
  return found;
}

std::string Shell::find_command_in(std::string_view name, std::string_view dirs) {
  std::string candidate;
  size_t start = 0;
  for (;;) {
    size_t colon = dirs.find(':', start);
    std::string_view dir = dirs.substr(start, colon == std::string_view::npos ? dirs.npos : colon - start);
    candidate.assign(dir.empty() ? "." : dir);
    candidate += '/';
    candidate += name;
    struct stat st;
    // A PATH entry the session cannot see holds nothing (session_view.h); asked only
    // of a name found, so a search costs nothing more.
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0 &&
        !view_hides(*this, candidate))
      return candidate;
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  // As dash: a file that is there but not executable does not count (127).
  return {};
}

}  // namespace lash::exec
