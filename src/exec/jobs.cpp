// Waiting for children: foreground commands, background jobs, `wait`.
#include <sys/wait.h>

#include <signal.h>

#include <cerrno>

#include "exec/shell.h"

namespace lash::exec {

namespace {
int decode(int wstatus) {
  if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
  return 0;
}
volatile pid_t g_foreground = 0;
}  // namespace

pid_t foreground_pid() { return g_foreground; }

// TERM or HUP that arrived while no child was in the foreground (the handler
// forwards only to a running one): pass it on now.
static void forward_pending(Shell& sh, pid_t pid) {
  for (int sig : {SIGTERM, SIGHUP})
    if (g_pending[sig] && !sh.trap_set[sig] && !sh.opt.interactive) ::kill(pid, sig);
}

void Shell::note_reaped(pid_t pid, int status) {
  child_gone(pid);
  for (auto& j : jobs)
    if (j.pid == pid) {
      j.done = true;
      j.status = status;
      return;
    }
  services().child_reaped(pid);  // one of lash's helpers, perhaps
  // A child not waited for yet (a later member of the pipeline being waited for).
  if (reaped_unclaimed.size() >= 4096) reaped_unclaimed.clear();  // bounded: never claimed
  reaped_unclaimed[pid] = status;
}

int Shell::wait_pid(pid_t pid, bool interruptible) {
  // A job we already reaped?
  for (auto& j : jobs)
    if (j.pid == pid && j.done) return j.status;
  if (auto it = reaped_unclaimed.find(pid); it != reaped_unclaimed.end()) {
    int st = it->second;
    reaped_unclaimed.erase(it);
    return st;
  }
  siginfo_t probe{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &probe, WEXITED | WNOHANG | WNOWAIT) != 0 && errno == ECHILD)
    return 127;  // not our child
  g_foreground = pid;
  forward_pending(*this, pid);
  int ws = 0;
  for (;;) {
    if (interruptible) {
      // `wait` returns at once when a trapped signal arrives (POSIX 2.11). Checked on
      // every round: the signal may have come while another child was being reaped
      // (that waitpid returns the child, not EINTR).
      for (int sig = 1; sig < NSIG; ++sig)
        if (g_pending[sig] && trap_set[sig]) {
          g_foreground = 0;
          return 128 + sig;
        }
    }
    // Any child, not only PID: a background job that ends meanwhile is reaped now, so
    // that it stops answering `kill -0` (a pipeline member polling a job while the
    // shell waits for that pipeline would otherwise wait forever), as in dash.
    pid_t r = ::waitpid(-1, &ws, 0);
    if (r == pid) break;
    if (r > 0) {
      note_reaped(r, decode(ws));
      forward_pending(*this, pid);
      continue;
    }
    if (r < 0 && errno == EINTR) {
      forward_pending(*this, pid);
      continue;
    }
    g_foreground = 0;
    return 127;  // not our child
  }
  g_foreground = 0;
  child_gone(pid);
  int st = decode(ws);
  for (auto& j : jobs)
    if (j.pid == pid) {
      j.done = true;
      j.status = st;
    }
  return st;
}

void Shell::reap_jobs() {
  if (jobs.empty()) return;
  for (auto& j : jobs) {
    if (j.done) continue;
    int ws;
    pid_t r = ::waitpid(j.pid, &ws, WNOHANG);
    if (r == j.pid) {
      child_gone(r);
      j.done = true;
      j.status = decode(ws);
    }
  }
  // Keep finished jobs waitable (`wait PID` reports their status), but bound the
  // table for scripts that start jobs in an endless loop.
  if (jobs.size() > 4096)
    std::erase_if(jobs, [&](const Job& j) { return j.done && j.pid != last_bg; });
}

}  // namespace lash::exec
