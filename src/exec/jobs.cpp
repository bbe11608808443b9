// Waiting for children: foreground commands, background jobs, `wait`.
#include <sys/wait.h>

#include <signal.h>

#include <algorithm>
#include <cerrno>

#include "exec/denial_limit.h"
#include "exec/job_control.h"
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

// Marks the member PID of a job as ended; the job is done when none is left.
static bool job_member_ended(Job& j, pid_t pid, int status) {
  bool member = std::find(j.members.begin(), j.members.end(), pid) != j.members.end();
  if (j.pid != pid && !member) return false;
  std::erase(j.members, pid);
  if (j.pid == pid) j.status = status;
  if (j.members.empty() && !j.done) {
    j.done = true;
    j.stopped = false;
    j.reported = false;
  }
  return true;
}

void Shell::note_reaped(pid_t pid, int status) {
  child_gone(pid);
  for (auto& j : jobs)
    if (!j.done && job_member_ended(j, pid, status)) return;
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
  // Job control: a foreground job may stop (Ctrl-Z) instead of ending; then the
  // whole job is left to the jobs table (ForegroundJob::finish).
  const bool fg_job = job_control_active(*this) && jc.foreground &&
                      std::find(jc.fg_pids.begin(), jc.fg_pids.end(), pid) != jc.fg_pids.end();
  if (fg_job && jc.fg_stop_signal) return 128 + jc.fg_stop_signal;
  const int wait_flags = job_control_active(*this) ? WUNTRACED : 0;
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
    pid_t r = ::waitpid(-1, &ws, wait_flags);
    if (r > 0 && WIFSTOPPED(ws)) {
      if (fg_job && std::find(jc.fg_pids.begin(), jc.fg_pids.end(), r) != jc.fg_pids.end()) {
        jc.fg_stop_signal = WSTOPSIG(ws);
        g_foreground = 0;
        return 128 + jc.fg_stop_signal;
      }
      note_stopped(*this, r, WSTOPSIG(ws));
      continue;
    }
    if (r == pid) break;
    if (r > 0) {
      note_reaped(r, decode(ws));
      end_now_if_denial_limit(*this);  // the relay or a subshell reached [monitoring] max_denials
      forward_pending(*this, pid);
      continue;
    }
    if (r < 0 && errno == EINTR) {
      end_now_if_denial_limit(*this);
      forward_pending(*this, pid);
      continue;
    }
    g_foreground = 0;
    return 127;  // not our child
  }
  g_foreground = 0;
  child_gone(pid);
  int st = decode(ws);
  // A subshell that reached the session's refusal limit ended; so does the session.
  if (denial_limit_reached()) g_pending_any = 1;
  for (auto& j : jobs)
    if (!j.done) job_member_ended(j, pid, st);
  return st;
}

void Shell::reap_jobs() {
  if (jobs.empty()) return;
  const int flags = WNOHANG | (job_control_active(*this) ? WUNTRACED : 0);
  for (auto& j : jobs) {
    if (j.done) continue;
    std::vector<pid_t> members = j.members.empty() ? std::vector<pid_t>{j.pid} : j.members;
    for (pid_t m : members) {
      int ws;
      pid_t r = ::waitpid(m, &ws, flags);
      if (r != m) continue;
      if (WIFSTOPPED(ws)) {
        note_stopped(*this, r, WSTOPSIG(ws));
        continue;
      }
      child_gone(r);
      job_member_ended(j, r, decode(ws));
    }
  }
  // Keep finished jobs waitable (`wait PID` reports their status), but bound the
  // table for scripts that start jobs in an endless loop.
  if (jobs.size() > 4096)
    std::erase_if(jobs, [&](const Job& j) { return j.done && (!j.listed || !opt.interactive) && j.pid != last_bg; });
}

}  // namespace lash::exec
