// Process builtins: wait kill trap.
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "base/strutil.h"
#include "builtins/families.h"
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
    if (!n) return std::nullopt;
    Operand o{*n, nullptr};
    int64_t abs = *n < 0 ? -*n : *n;
    for (auto it = jobs.rbegin(); it != jobs.rend(); ++it)
      if (it->shown == abs || (it->shown <= 0 && it->pid == abs)) {
        o.job = &*it;
        break;
      }
    return o;
  }
  if (jobs.empty()) return std::nullopt;
  const exec::Job* j = nullptr;
  if (arg == "%" || arg == "%%" || arg == "%+") {
    j = &jobs.back();
  } else if (arg == "%-") {
    if (jobs.size() < 2) return std::nullopt;
    j = &jobs[jobs.size() - 2];
  } else {
    auto n = str::parse_int(arg.substr(1));
    if (!n || *n < 1 || size_t(*n) > jobs.size()) return std::nullopt;
    j = &jobs[size_t(*n) - 1];
  }
  return Operand{j->shown > 0 ? j->shown : j->pid, j};
}

int bi_wait(Shell& sh, std::vector<std::string>& argv) {
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

int bi_kill(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    sh.error("kill: usage: kill [-s sigspec | -signum | -sigspec] pid... | -l [exitstatus]");
    return 2;
  }
  size_t i = 1;
  int sig = SIGTERM;
  const std::string& a = argv[1];
  if (a == "-l" || a == "-L") {
    if (argv.size() == 2) {
      // dash's list: 0, then every number below NSIG by name, or by number when
      // it has none.
      sh.out() << "0\n";
      for (int s = 1; s < NSIG; ++s) sh.out() << dash_signal_name(s) << '\n';
      return 0;
    }
    int st = 0;
    for (size_t k = 2; k < argv.size(); ++k) {
      auto n = str::parse_int(argv[k]);
      if (!n) {
        // As dash: -l maps numbers and exit statuses to names, not names to numbers.
        sh.error("kill: invalid signal number or exit status: " + argv[k]);
        st = 2;
        continue;
      }
      int64_t v = *n > 128 ? *n - 128 : *n;
      if (v <= 0 || v >= NSIG) {
        sh.error("kill: invalid signal number or exit status: " + argv[k]);
        st = 2;
        continue;
      }
      sh.out() << dash_signal_name(int(v)) << '\n';
    }
    return st;
  }
  if (a == "-s") {
    if (argv.size() < 3) {
      sh.error("kill: option requires an argument -- s");
      return 2;
    }
    sig = Shell::signal_number(argv[2]);
    i = 3;
  } else if (a.size() > 1 && a[0] == '-' && a != "--") {
    sig = Shell::signal_number(a.substr(1));
    i = 2;
  } else if (a == "--") {
    i = 2;
  }
  if (sig < 0) {
    sh.error("kill: invalid signal number or name: " + a);
    return 2;
  }
  if (i >= argv.size()) {  // a signal but no process: dash's usage error
    sh.error("kill: usage: kill [-s sigspec | -signum | -sigspec] pid... | -l [exitstatus]");
    return 2;
  }
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
      pid_t host = o->value < 0 ? -o->job->pid : o->job->pid;
      err = o->job->done ? ESRCH : ::kill(host, sig) == 0 ? 0 : errno;
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

int bi_trap(Shell& sh, std::vector<std::string>& argv) {
  size_t i = 1;
  if (i < argv.size() && argv[i] == "--") ++i;
  if (i >= argv.size() || (argv[i] == "-p" && i + 1 == argv.size())) {
    for (int s = 0; s < NSIG; ++s) {
      if (!sh.trap_set[s]) continue;
      sh.out() << "trap -- " << str::quote_always(sh.traps[s]) << ' '
               << Shell::signal_name(s) << '\n';
    }
    return 0;
  }
  if (argv[i] == "-p") {
    for (size_t k = i + 1; k < argv.size(); ++k) {
      int s = Shell::signal_number(argv[k]);
      if (s >= 0 && sh.trap_set[s])
        sh.out() << "trap -- " << str::quote_always(sh.traps[s]) << ' ' << Shell::signal_name(s) << '\n';
    }
    return 0;
  }
  // trap ACTION SIG...; a first operand that is a number means "reset" (POSIX).
  std::string action = argv[i];
  bool reset = action == "-";
  size_t first_sig = i + 1;
  if (str::parse_int(action) && Shell::signal_number(action) >= 0) {
    reset = true;
    first_sig = i;
  }
  if (first_sig >= argv.size() && !reset) {
    sh.error("trap: usage: trap [action condition...]");
    return 2;
  }
  int st = 0;
  for (size_t k = first_sig; k < argv.size(); ++k) {
    int s = Shell::signal_number(argv[k]);
    if (s < 0 || s == SIGKILL || s == SIGSTOP) {
      sh.error("trap: " + argv[k] + ": bad trap");
      st = 1;
      continue;
    }
    if (reset)
      sh.set_trap(s, std::nullopt);
    else
      sh.set_trap(s, action);
  }
  return st;
}

constexpr exec::BuiltinDef kJobs[] = {
    {"kill", bi_kill, exec::BuiltinKind::regular, "", "send a signal"},
    {"trap", bi_trap, exec::BuiltinKind::special, "", "run commands on signals and exit"},
    {"wait", bi_wait, exec::BuiltinKind::regular, "", "wait for background jobs"},
};

}  // namespace

void register_jobs() { exec::register_builtins(kJobs); }

}  // namespace lash::builtins
