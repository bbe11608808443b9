// Process builtins: wait kill trap, and job control: jobs fg bg disown.
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>

#include "base/strutil.h"
#include "builtins/families.h"
#include "builtins/session_jobs.h"
#include "exec/job_control.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "exec/signal_gate.h"
#include "sandbox/launch.h"
#include "sandbox/ns.h"

namespace lash::builtins {
using exec::Shell;

namespace {

// An operand of `wait` or `kill`: a job spec of this shell's background jobs (%N: the
// N-th job started and still known, %% and %+ the latest, %- the one before it) or a
// number. Numbers are in the session's numbering (sandbox/ns.h: what `$!` shows); one
// that names a job (or, negative, a job's process group) resolves to it.
struct Operand {
  int64_t value = 0;     // as typed (a job spec: the job's pid as shown)
  const exec::Job* job = nullptr;
};

std::optional<Operand> operand(Shell& sh, const std::string& arg) {
  const auto& jobs = sh.jobs;
  if (arg.empty() || arg[0] != '%') {
    auto n = str::parse_int(arg);
    // A pid is an int: 4294967296 must not wrap to 0 (the shell's own group).
    if (!n || *n > INT_MAX || *n < -static_cast<int64_t>(INT_MAX)) return std::nullopt;
    Operand o{*n, nullptr};
    int64_t abs = *n < 0 ? -*n : *n;
    for (auto it = jobs.rbegin(); it != jobs.rend(); ++it)
      if (it->shown == abs || (it->shown <= 0 && it->pid == abs)) {
        o.job = &*it;
        break;
      }
    return o;
  }
  std::string message;
  const exec::Job* j = exec::find_job(sh, arg, message);
  if (!j) return std::nullopt;
  return Operand{j->shown > 0 ? j->shown : j->pid, j};
}

int bi_wait(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() == 2 && argv[1] == "-n") return exec::wait_any_job(sh);
  if (argv.size() == 1) {
    for (auto& j : sh.jobs)
      if (!j.done) {
        int st = sh.wait_pid(j.pid, true);
        if (st > 128 && !j.done) return st;  // interrupted by a trapped signal
      }
    return 0;
  }
  int st = 0;
  for (size_t i = 1; i < argv.size(); ++i) {
    auto o = operand(sh, argv[i]);
    if (!o || o->value <= 0) {
      sh.error("wait: Illegal number: " + argv[i]);
      return 2;
    }
    st = o->job ? sh.wait_pid(o->job->pid, true) : 127;
    if (o->job && o->job->done && argv[i][0] == '%') {
      // Waited for by its job spec: reported, gone from the table.
      auto* j = const_cast<exec::Job*>(o->job);
      j->listed = false;
      j->reported = true;
    }
  }
  return st;
}

// Signal names as dash prints them: no SIG prefix, real-time signals as RTMIN+n
// for the first half and RTMAX-n for the second, and a bare number for a signal
// without a name (16, 32 and 33 on Linux).
std::string dash_signal_name(int s) {
  if (s >= SIGRTMIN && s <= SIGRTMAX) {
    if (s == SIGRTMIN) return "RTMIN";
    if (s == SIGRTMAX) return "RTMAX";
    if (s - SIGRTMIN <= 15) return "RTMIN+" + std::to_string(s - SIGRTMIN);
    return "RTMAX-" + std::to_string(SIGRTMAX - s);
  }
  std::string n = Shell::signal_name(s);
  if (n == "STKFLT" || n.empty()) return std::to_string(s);
  return n;
}

// kill's arguments, for bi_kill and kill_effects alike (so the two cannot read them
// differently): -l/-L lists, `-s SIG`, `-SIG`, `--`, then the processes. On a usage
// error `ok` is false and `error` says it (nothing is signalled).
struct KillArgs {
  bool ok = false;
  bool list = false;
  int sig = SIGTERM;
  size_t first = 1;  // first process operand (or exit status, with -l)
  std::string error;
};
KillArgs parse_kill_args(const std::vector<std::string>& argv) {
  KillArgs k;
  k.error = "kill: usage: kill [-s sigspec | -signum | -sigspec] pid... | -l [exitstatus]";
  if (argv.size() < 2) return k;
  const std::string& a = argv[1];
  if (a == "-l" || a == "-L") {
    k.ok = k.list = true;
    k.first = 2;
    return k;
  }
  if (a == "-s" || a == "-n") {
    if (argv.size() < 3) {
      k.error = "kill: option requires an argument -- s";
      return k;
    }
    k.sig = Shell::signal_number(argv[2]);
    k.first = 3;
  } else if (a.size() > 1 && a[0] == '-' && a != "--") {
    k.sig = Shell::signal_number(a.substr(1));
    k.first = 2;
  } else if (a == "--") {
    k.first = 2;
  }
  if (k.sig < 0) {
    k.error = "kill: invalid signal number or name: " + (a == "-s" || a == "-n" ? argv[2] : a);
    return k;
  }
  k.ok = k.first < argv.size();  // else a signal but no process: dash's usage error
  return k;
}

int bi_kill(Shell& sh, std::vector<std::string>& argv) {
  KillArgs k = parse_kill_args(argv);
  if (!k.ok) {
    sh.error(k.error);
    return 2;
  }
  if (k.list) {
    if (argv.size() == 2 && !sh.opt.posix) {
      // bash's table: "N) SIGNAME" five to a line, the real-time ones by offset.
      int col = 0;
      for (int s = 1; s < NSIG; ++s) {
        if (s == 32 || s == 33) continue;  // glibc's own, not listed by bash
        std::string name = Shell::signal_name(s);
        if (s >= SIGRTMIN && s <= SIGRTMAX) {
          int off = s - SIGRTMIN, back = SIGRTMAX - s;
          name = off <= 15 ? (off == 0 ? "RTMIN" : "RTMIN+" + std::to_string(off))
                           : (back == 0 ? "RTMAX" : "RTMAX-" + std::to_string(back));
        }
        char cell[40];
        std::snprintf(cell, sizeof cell, "%2d) SIG%s", s, name.c_str());
        sh.out() << cell << (++col % 5 == 0 || s == NSIG - 1 ? "\n" : "\t");
      }
      return 0;
    }
    if (argv.size() == 2) {
      // dash's list: 0, then every number below NSIG by name, or by number when
      // it has none.
      sh.out() << "0\n";
      for (int s = 1; s < NSIG; ++s) sh.out() << dash_signal_name(s) << '\n';
      return 0;
    }
    int st = 0;
    for (size_t n = k.first; n < argv.size(); ++n) {
      auto v = str::parse_int(argv[n]);
      if (!v && !sh.opt.posix) {  // bash: a name gives its number
        int s = Shell::signal_number(argv[n]);
        if (s > 0) {
          sh.out() << std::to_string(s) << '\n';
          continue;
        }
      }
      int64_t num = v ? (*v > 128 ? *v - 128 : *v) : 0;
      if (!v || num <= 0 || num >= NSIG) {
        // As dash: -l maps numbers and exit statuses to names, not names to numbers.
        sh.error("kill: invalid signal number or exit status: " + argv[n]);
        st = 2;
        continue;
      }
      sh.out() << dash_signal_name(int(num)) << '\n';
    }
    return st;
  }
  const int sig = k.sig;
  size_t i = k.first;
  // A job that has ended is collected first, so that `kill -0 $pid` fails for it as
  // in other shells (an unreaped zombie would still take signals, and a
  // `while kill -0 "$pid"` loop would never end).
  sh.reap_jobs();
  int st = 0;
  for (; i < argv.size(); ++i) {
    auto o = operand(sh, argv[i]);
    if (!o) {
      sh.error("kill: Illegal number: " + argv[i]);
      st = 2;
      continue;
    }
    int err;
    if (o->job) {
      // One of this shell's own jobs (lash is its parent and has not reaped it: the
      // pid is still its own). A job that has ended is gone.
      // A job with a process group of its own (job control) is signalled as a group,
      // and a stopped one is continued so that it can act on the signal.
      bool group = o->job->pgid > 0 && (argv[i][0] == '%' || o->value < 0);
      pid_t host = group ? -o->job->pgid : o->value < 0 ? -o->job->pid : o->job->pid;
      err = o->job->done ? ESRCH : ::kill(host, sig) == 0 ? 0 : errno;
      if (err == 0 && o->job->stopped && sig != SIGCONT && sig != SIGSTOP && sig != SIGTSTP && sig != 0)
        (void)::kill(host, SIGCONT);
    } else if (!sandbox::running_sandboxed()) {
      err = exec::signal_not_a_job(sh, o->value, sig, argv[i]);
      if (err == exec::kSignalRefused) {
        st = 126;
        continue;
      }
    } else {
      // A subshell under the sandbox, inside the session's pid namespace when there
      // is one. lash ($$) is not in it: asked of the watchdog by name, never by a
      // number that may be another process here.
      pid_t pid = pid_t(o->value);
      bool lash = o->value == sh.shell_pid && sandbox::session_namespaces_inherited();
      err = lash ? EPERM : ::kill(pid, sig) == 0 ? 0 : errno;
      // Landlock refuses signals to processes outside the subshell's own domain, lash
      // and the other jobs included: the session relays those, and only to its own
      // processes.
      if (err == EPERM && o->value > 0) err = sh.services().relay_signal(lash ? 0 : pid, sig);
    }
    if (err != 0) {
      sh.error("kill: " + argv[i] + ": " + std::strerror(err));
      if (st == 0) st = 1;
    }
  }
  return st;
}

// ---- effects of kill and wait ---------------------------------------------------

// A job spec (%N) is job control of the session's own jobs: job_control_own, checked
// before kill/wait runs (once for the command). A pid may be the session's own
// process or any other: only known when the signal is sent, so kill decides it then
// (job_control_others, or session_manage for another lash session) and the dry run
// says `dynamic`. Operands only the run knows (`kill $pid`) are all of that kind.
void job_spec_action(const std::vector<std::string>& argv, size_t first, exec::BuiltinEffects& e) {
  for (size_t i = first; i < argv.size(); ++i)
    if (!argv[i].empty() && argv[i][0] == '%') {
      e.actions.push_back({policy::Builtin{policy::Capability::job_control_own, argv[0] + " " + argv[i]}});
      return;
    }
}

exec::BuiltinEffects kill_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  auto at_run_time = [&](const std::string& what) {
    exec::PlannedAction a{policy::Builtin{policy::Capability::job_control_others, "kill " + what}};
    a.at_run_time = true;
    e.actions.push_back(std::move(a));
  };
  if (sh.dry && sh.dry_dynamic) {
    at_run_time("...");
    return e;
  }
  KillArgs k = parse_kill_args(argv);
  if (!k.ok || k.list) return e;
  bool job_seen = false;
  for (size_t i = k.first; i < argv.size(); ++i) {
    bool job = !argv[i].empty() && argv[i][0] == '%';
    if (!job) at_run_time(argv[i]);
    else if (!job_seen) job_spec_action(argv, i, e);
    job_seen = job_seen || job;
  }
  return e;
}

// wait PID waits for a child of this shell (127 for any other): no effect outside.
exec::BuiltinEffects wait_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  job_spec_action(argv, 1, e);
  return e;
}

// trap's arguments, for bi_trap and trap_effects: [--] then nothing or -p (print
// all), -p SIG... (print those), or ACTION SIG...; `-` or a first operand that is a
// signal number (POSIX) resets.
struct TrapArgs {
  enum class Mode : uint8_t { print_all, print_some, reset, set, usage } mode = Mode::print_all;
  std::string action;
  size_t first_sig = 1;
};
TrapArgs parse_trap_args(const std::vector<std::string>& argv) {
  using M = TrapArgs::Mode;
  TrapArgs t;
  size_t i = 1;
  if (i < argv.size() && argv[i] == "--") ++i;
  if (i >= argv.size() || (argv[i] == "-p" && i + 1 == argv.size())) return t;
  if (argv[i] == "-p") {
    t.mode = M::print_some;
    t.first_sig = i + 1;
    return t;
  }
  t.action = argv[i];
  t.first_sig = i + 1;
  t.mode = t.action == "-" ? M::reset : M::set;
  if (str::parse_int(t.action) && Shell::signal_number(t.action) >= 0) {
    t.mode = M::reset;
    t.first_sig = i;
  }
  if (t.first_sig >= argv.size() && t.mode != M::reset) t.mode = M::usage;
  return t;
}

// bash's pseudo-signals (not in sh mode): DEBUG, ERR, RETURN -> 0, 1, 2; else -1.
constexpr const char* kPseudoTraps[] = {"DEBUG", "ERR", "RETURN"};
int pseudo_trap_index(const Shell& sh, std::string_view name) {
  if (sh.opt.posix) return -1;
  if (name.substr(0, 3) == "SIG") name.remove_prefix(3);
  for (int i = 0; i < 3; ++i)
    if (name == kPseudoTraps[i]) return i;
  return -1;
}

int bi_trap(Shell& sh, std::vector<std::string>& argv) {
  using M = TrapArgs::Mode;
  TrapArgs t = parse_trap_args(argv);
  if (t.mode == M::print_all) {
    for (int s = 0; s < NSIG; ++s) {
      if (!sh.trap_set[s]) continue;
      sh.out() << "trap -- " << str::quote_always(sh.traps[s]) << ' '
               << Shell::signal_name(s) << '\n';
    }
    for (int p = 0; p < 3; ++p)
      if (sh.pseudo_trap_set[p]) sh.out() << "trap -- " << str::quote_always(sh.pseudo_traps[p]) << ' ' << kPseudoTraps[p] << '\n';
    return 0;
  }
  if (t.mode == M::print_some) {
    for (size_t k = t.first_sig; k < argv.size(); ++k) {
      if (int p = pseudo_trap_index(sh, argv[k]); p >= 0) {
        if (sh.pseudo_trap_set[p]) sh.out() << "trap -- " << str::quote_always(sh.pseudo_traps[p]) << ' ' << kPseudoTraps[p] << '\n';
        continue;
      }
      int s = Shell::signal_number(argv[k]);
      if (s >= 0 && sh.trap_set[s])
        sh.out() << "trap -- " << str::quote_always(sh.traps[s]) << ' ' << Shell::signal_name(s) << '\n';
    }
    return 0;
  }
  if (t.mode == M::usage) {
    sh.error("trap: usage: trap [action condition...]");
    return 2;
  }
  int st = 0;
  for (size_t k = t.first_sig; k < argv.size(); ++k) {
    if (int p = pseudo_trap_index(sh, argv[k]); p >= 0) {  // bash's ERR, DEBUG, RETURN
      sh.pseudo_traps[p] = t.mode == M::reset ? std::string() : t.action;
      sh.pseudo_trap_set[p] = t.mode != M::reset;
      continue;
    }
    int s = Shell::signal_number(argv[k]);
    if (s < 0 || s == SIGKILL || s == SIGSTOP) {
      sh.error("trap: " + argv[k] + ": bad trap");
      st = 1;
      continue;
    }
    if (t.mode == M::reset)
      sh.set_trap(s, std::nullopt);
    else
      sh.set_trap(s, t.action);
  }
  return st;
}

// trap ACTION SIGNAL...: ACTION is shell text that runs later, at exit or when the
// signal comes (the dry run walks it once the script is walked).
exec::BuiltinEffects trap_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  if (sh.dry && sh.dry_dynamic) {  // text or mode only the run knows: said so by the walk
    e.walk.text = exec::WalkHints::Text::later;
    return e;
  }
  TrapArgs t = parse_trap_args(argv);
  if (t.mode != TrapArgs::Mode::set || t.action.empty()) return e;
  e.walk.text = exec::WalkHints::Text::later;
  e.walk.text_value = t.action;
  return e;
}

// ---- job control: jobs fg bg disown ---------------------------------------------

// Every one acts on the session's own jobs: job_control_own, checked before it runs.
exec::BuiltinEffects job_control_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.actions.push_back({policy::Builtin{policy::Capability::job_control_own, argv[0]}});
  return e;
}

// `jobs --session ID` looks at another session's processes: job_control_others.
exec::BuiltinEffects jobs_effects(Shell& sh, const std::vector<std::string>& argv) {
  if (argv.size() >= 2 && argv[1] == "--session") {
    exec::BuiltinEffects e;
    e.actions.push_back({policy::Builtin{policy::Capability::job_control_others, "jobs --session"}});
    return e;
  }
  return job_control_effects(sh, argv);
}

// The jobs named by ARGV from FIRST (the current job when there is none).
bool named_jobs(Shell& sh, const std::vector<std::string>& argv, size_t first, std::vector<exec::Job*>& out) {
  if (first >= argv.size()) {
    std::string message;
    exec::Job* j = exec::current_job(sh);
    if (!j) {
      sh.error(argv[0] + ": current: no such job");
      return false;
    }
    out.push_back(j);
    return true;
  }
  bool ok = true;
  for (size_t i = first; i < argv.size(); ++i) {
    std::string message;
    exec::Job* j = exec::find_job(sh, argv[i], message);
    if (!j && argv[i][0] != '%') {  // a pid of a job
      auto n = str::parse_int(argv[i]);
      for (auto& job : sh.jobs)
        if (n && job.listed && (job.shown == *n || job.pid == *n)) j = &job;
    }
    if (!j) {
      sh.error(argv[0] + ": " + (message.empty() ? argv[i] + ": no such job" : message));
      ok = false;
      continue;
    }
    out.push_back(j);
  }
  return ok;
}

int bi_jobs(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() >= 2 && argv[1] == "--session") {
    bool json_out = argv.size() == 4 && argv[3] == "--json";
    if (argv.size() != 3 && !json_out) {
      sh.error("jobs: usage: jobs --session ID [--json]");
      return 2;
    }
    return session_jobs(sh, argv[2], json_out);
  }
  bool long_form = false, pids_only = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (char c : argv[i].substr(1)) {
      if (c == 'l') long_form = true;
      else if (c == 'p') pids_only = true;
      else {
        sh.error("jobs: usage: jobs [-l|-p] [job_id...]");
        return 2;
      }
    }
  }
  sh.reap_jobs();
  std::vector<exec::Job*> which;
  bool ok = true;
  if (i < argv.size()) ok = named_jobs(sh, argv, i, which);
  else
    for (auto& j : sh.jobs)
      if (j.listed) which.push_back(&j);
  for (exec::Job* j : which) {
    pid_t shown = j->shown > 0 ? j->shown : j->pid;
    if (pids_only) {
      sh.out() << std::to_string(shown) << '\n';
      continue;
    }
    std::string state = exec::job_state(*j);
    if (state.size() < 24) state.append(24 - state.size(), ' ');
    sh.out() << '[' << std::to_string(j->number) << ']' << exec::job_mark(sh, *j) << "  ";
    if (long_form) sh.out() << std::to_string(shown) << ' ';
    sh.out() << state << j->text << (!j->done && !j->stopped ? " &" : "") << '\n';
  }
  // What was shown is reported; a finished job leaves the table.
  for (exec::Job* j : which) {
    j->reported = true;
    if (j->done) j->listed = false;
  }
  return ok ? 0 : 1;
}

int bi_fg(Shell& sh, std::vector<std::string>& argv) {
  if (!exec::job_control_active(sh)) {
    sh.error("fg: no job control");
    return 1;
  }
  std::vector<exec::Job*> which;
  if (!named_jobs(sh, argv, 1, which)) return 1;
  exec::Job& j = *which.front();
  if (j.done) {
    sh.error("fg: job has terminated");
    j.listed = false;
    return 1;
  }
  return exec::continue_foreground(sh, j);
}

int bi_bg(Shell& sh, std::vector<std::string>& argv) {
  if (!exec::job_control_active(sh)) {
    sh.error("bg: no job control");
    return 1;
  }
  std::vector<exec::Job*> which;
  bool ok = named_jobs(sh, argv, 1, which);
  for (exec::Job* j : which) {
    if (j->done) {
      sh.error("bg: job has terminated");
      ok = false;
      continue;
    }
    if (!j->stopped) {
      sh.error("bg: job " + std::to_string(j->number) + " already in background");
      continue;
    }
    exec::continue_background(sh, *j);
    sh.out() << '[' << std::to_string(j->number) << ']' << exec::job_mark(sh, *j) << ' ' << j->text << " &\n";
  }
  return ok ? 0 : 1;
}

int bi_disown(Shell& sh, std::vector<std::string>& argv) {
  bool all = false, keep = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    for (char c : argv[i].substr(1)) {
      if (c == 'a') all = true;
      else if (c == 'h') keep = true;
      else {
        sh.error("disown: usage: disown [-h] [-a] [job_id...]");
        return 2;
      }
    }
  }
  std::vector<exec::Job*> which;
  bool ok = true;
  if (all)
    for (auto& j : sh.jobs) {
      if (j.listed) which.push_back(&j);
    }
  else
    ok = named_jobs(sh, argv, i, which);
  for (exec::Job* j : which) {
    j->nohup = true;           // no SIGHUP when the shell exits
    if (!keep) j->listed = false;  // and, without -h, gone from the table
  }
  return ok ? 0 : 1;
}

constexpr exec::BuiltinDef kJobs[] = {
    {"bg", bi_bg, job_control_effects, exec::BuiltinKind::regular, "continue a stopped job in the background"},
    {"disown", bi_disown, job_control_effects, exec::BuiltinKind::regular, "forget a job"},
    {"fg", bi_fg, job_control_effects, exec::BuiltinKind::regular, "continue a job in the foreground"},
    {"jobs", bi_jobs, jobs_effects, exec::BuiltinKind::regular, "list the session's jobs"},
    {"kill", bi_kill, kill_effects, exec::BuiltinKind::regular, "send a signal"},
    {"trap", bi_trap, trap_effects, exec::BuiltinKind::special, "run commands on signals and exit"},
    {"wait", bi_wait, wait_effects, exec::BuiltinKind::regular, "wait for background jobs"},
};

}  // namespace

void register_jobs() { exec::register_builtins(kJobs); }

}  // namespace lash::builtins
