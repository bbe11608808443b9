// Traps: signal handlers only record the signal; the interpreter runs the trap's
// commands between commands (run_pending_traps), as POSIX requires.
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "exec/denial_limit.h"
#include "exec/shell.h"
#include "sandbox/launch.h"

namespace lash::exec {

volatile sig_atomic_t g_pending_any = 0;
volatile sig_atomic_t g_pending[NSIG] = {};

pid_t foreground_pid();

namespace {

struct SigName {
  int num;
  const char* name;
};
constexpr SigName kSignals[] = {
    {SIGHUP, "HUP"},   {SIGINT, "INT"},     {SIGQUIT, "QUIT"},   {SIGILL, "ILL"},   {SIGTRAP, "TRAP"},
    {SIGABRT, "ABRT"}, {SIGBUS, "BUS"},     {SIGFPE, "FPE"},     {SIGKILL, "KILL"}, {SIGUSR1, "USR1"},
    {SIGSEGV, "SEGV"}, {SIGUSR2, "USR2"},   {SIGPIPE, "PIPE"},   {SIGALRM, "ALRM"}, {SIGTERM, "TERM"},
    {SIGSTKFLT, "STKFLT"}, {SIGCHLD, "CHLD"}, {SIGCONT, "CONT"}, {SIGSTOP, "STOP"}, {SIGTSTP, "TSTP"},
    {SIGTTIN, "TTIN"}, {SIGTTOU, "TTOU"},   {SIGURG, "URG"},     {SIGXCPU, "XCPU"}, {SIGXFSZ, "XFSZ"},
    {SIGVTALRM, "VTALRM"}, {SIGPROF, "PROF"}, {SIGWINCH, "WINCH"}, {SIGIO, "IO"},   {SIGPWR, "PWR"},
    {SIGSYS, "SYS"},
};

// Set for TERM and HUP while they end the shell (no trap; TERM not in an interactive
// shell): the handler then passes them to the foreground child. Kept by
// Shell::update_forwarding, read by the handler.
volatile sig_atomic_t g_pass_to_child[NSIG] = {};

// Records the signal. For TERM and HUP that end the shell, the foreground child gets
// the signal too, so a terminated shell does not leave its command running; a
// trapped one is the shell's to handle, and the command runs on (as in dash and bash).
void on_signal(int sig) {
  int saved = errno;
  g_pending[sig] = 1;
  g_pending_any = 1;
  if (g_pass_to_child[sig]) {
    pid_t fg = foreground_pid();
    if (fg > 0) ::kill(fg, sig);
  }
  errno = saved;
}

bool forwards(int sig) { return sig == SIGTERM || sig == SIGHUP; }

void install(int sig, void (*handler)(int)) { Shell::set_disposition(sig, handler); }

}  // namespace

// Every disposition lash sets goes through here, so that the launcher knows which
// signals have a handler (sandbox::note_signal_handler).
void Shell::set_disposition(int sig, void (*handler)(int)) {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read or wait returns EINTR
  // Noted as handled before the handler is in place, and as not handled only after:
  // a child started in between resets one signal too many, never one too few.
  bool handler_set = handler != SIG_DFL && handler != SIG_IGN;
  if (handler_set) sandbox::note_signal_handler(sig, true);
  if (::sigaction(sig, &sa, nullptr) == 0 && !handler_set) sandbox::note_signal_handler(sig, false);
}

int Shell::signal_number(std::string_view name) {
  if (name == "EXIT" || name == "0") return 0;
  if (!name.empty() && name[0] >= '0' && name[0] <= '9') {
    int n = 0;
    for (char c : name) {
      if (c < '0' || c > '9') return -1;
      n = n * 10 + (c - '0');
      if (n >= NSIG) return -1;
    }
    return n;
  }
  if (name.substr(0, 3) == "SIG") name.remove_prefix(3);
  for (auto& s : kSignals)
    if (name == s.name) return s.num;
  return -1;
}

std::string Shell::signal_name(int sig) {
  if (sig == 0) return "EXIT";
  for (auto& s : kSignals)
    if (s.num == sig) return s.name;
  if (sig >= SIGRTMIN && sig <= SIGRTMAX) return "RTMIN+" + std::to_string(sig - SIGRTMIN);
  return std::to_string(sig);
}

void Shell::set_trap(int sig, std::optional<std::string> action) {
  if (sig < 0 || sig >= NSIG) return;
  if (sig != 0 && trap_ignored_at_entry[sig] && !opt.interactive) return;  // POSIX: stays ignored
  if (!action) {
    traps[sig].clear();
    trap_set[sig] = false;
    if (sig != 0) {
      update_forwarding(sig);
      if (forwards(sig))
        install(sig, on_signal);
      else
        set_disposition(sig, SIG_DFL);
    }
    return;
  }
  traps[sig] = *action;
  trap_set[sig] = true;
  if (sig == 0) return;
  update_forwarding(sig);
  if (action->empty())
    set_disposition(sig, SIG_IGN);
  else
    install(sig, on_signal);
}

void Shell::run_pending_traps() {
  if (!g_pending_any) return;
  if (denial_limit_reached()) end_for_denials(*this);
  if (in_trap) return;
  g_pending_any = 0;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (!g_pending[sig]) continue;
    g_pending[sig] = 0;
    if (!trap_set[sig] && forwards(sig) && !(opt.interactive && sig == SIGTERM)) {
      // Untrapped TERM/HUP: the foreground child already got it; now the shell
      // ends as if killed by it (after its EXIT trap and session teardown).
      exit_by_signal(sig);
    }
    if (!trap_set[sig] || traps[sig].empty()) continue;
    int saved_status = status;
    in_trap = true;
    std::string action = traps[sig];  // the trap may reset itself
    eval_string(action, "trap");
    in_trap = false;
    if (ctl != Ctl::exit) status = saved_status;
  }
}

bool Shell::signal_ends_blocking_call() const {
  for (int sig = 1; sig < NSIG; ++sig) {
    if (!g_pending[sig]) continue;
    if (trap_set[sig] ? !traps[sig].empty() : forwards(sig) && !(opt.interactive && sig == SIGTERM)) return true;
    if (sig == SIGINT && opt.interactive) return true;
  }
  return false;
}

void Shell::exit_if_signal_ends_shell(pid_t child) {
  for (int sig : {SIGTERM, SIGHUP})
    if (g_pending[sig] && g_pass_to_child[sig]) {
      if (child > 0) ::kill(child, sig);  // it was not in the foreground: pass it on now
      exit_by_signal(sig);
    }
}

void Shell::update_forwarding(int sig) const {
  if (sig > 0 && sig < NSIG)
    g_pass_to_child[sig] = forwards(sig) && !trap_set[sig] && !(opt.interactive && sig == SIGTERM);
}

void Shell::install_signal_handlers() {
  for (int sig : {SIGTERM, SIGHUP}) {
    struct sigaction old;
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) {
      trap_ignored_at_entry[sig] = true;
      continue;
    }
    update_forwarding(sig);
    install(sig, on_signal);
  }
  for (int sig : {SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE}) {
    struct sigaction old;
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) trap_ignored_at_entry[sig] = true;
  }
}

namespace {
void ignore_here(int) {}

// SIGXCPU at the soft limit: say why the shell ends, then end by the signal (its
// default action); the watchdog ends the session's processes.
void cpu_limit_reached(int sig) {
  static const char msg[] = "lash: the session's CPU time limit (max_cpu_seconds) is reached\n";
  (void)!::write(2, msg, sizeof msg - 1);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
}  // namespace

void Shell::catch_signal_quietly(int sig) { install(sig, ignore_here); }

void Shell::notice_cpu_limit() { install(SIGXCPU, cpu_limit_reached); }

void Shell::install_interactive_handlers() {
  // An interactive shell survives ^C and ^\ (they stop the command being typed or
  // the foreground program) and `kill $$`. Handlers, not SIG_IGN, so that programs
  // it starts get the default dispositions back at execve.
  for (int sig : {SIGINT, SIGQUIT, SIGTERM}) install(sig, on_signal);
  update_forwarding(SIGTERM);  // an interactive shell survives TERM, and so does its command
}

void Shell::exit_by_signal(int sig) {
  run_exit_trap();
  flush_all();
  if (exit_hook && !in_subshell) exit_hook();
  set_disposition(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::kill(::getpid(), sig);
  ::_exit(128 + sig);
}

void Shell::become_subshell() {
  in_subshell = true;
  // The interactive shell's keyboard signals are its own: a subshell it starts is
  // stopped by ^Z and ended by ^C like any program (or, where the profile refuses job
  // control, ignores ^Z: nothing could resume it).
  if (opt.interactive) {
    for (int sig : {SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH})
      if (!trap_set[sig]) set_disposition(sig, SIG_DFL);
    if (!opt.monitor && !trap_set[SIGTSTP]) set_disposition(SIGTSTP, SIG_IGN);
  }
  jc.pgid = -1;
  jc.foreground = false;
  jc.fg_pids.clear();
  jobs.clear();
  reaped_unclaimed.clear();
  live_children.clear();  // the parent's, not this process's
  // Traps are reset in a subshell, except that ignored signals stay ignored.
  for (int sig = 0; sig < NSIG; ++sig) {
    if (trap_set[sig] && !traps[sig].empty()) {
      traps[sig].clear();
      trap_set[sig] = false;
      if (sig != 0) set_disposition(sig, SIG_DFL);
    }
  }
  // Pending signals are kept: a TERM sent to this new process before it got here
  // must still reach the command it is about to run (wait_pid forwards it).
}

}  // namespace lash::exec
