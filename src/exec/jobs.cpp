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

int Shell::wait_pid(pid_t pid, bool interruptible) {
  // A job we already reaped?
  for (auto& j : jobs)
    if (j.pid == pid && j.done) return j.status;
  g_foreground = pid;
  forward_pending(*this, pid);
  int ws = 0;
  for (;;) {
    pid_t r = ::waitpid(pid, &ws, 0);
    if (r == pid) break;
    if (r < 0 && errno == EINTR) {
      forward_pending(*this, pid);
      if (interruptible) {
        // `wait` returns at once when a trapped signal arrives (POSIX 2.11).
        for (int sig = 1; sig < NSIG; ++sig)
          if (g_pending[sig] && trap_set[sig]) {
            g_foreground = 0;
            return 128 + sig;
          }
      }
      continue;
    }
    g_foreground = 0;
    return 127;  // not our child
  }
  g_foreground = 0;
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
