#include "exec/denial_limit.h"

#include <signal.h>
#include <sys/mman.h>

#include <atomic>
#include <string>

#include "exec/job_control.h"
#include "exec/shell.h"

namespace lash::exec {

namespace {
std::atomic<uint64_t>* g_count = nullptr;  // shared with every fork of the session
uint64_t g_max = 0;
}  // namespace

void set_denial_limit(uint64_t max) {
  g_max = max;
  if (max == 0 || g_count) return;
  void* p = ::mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;  // counted per process then (below)
  g_count = new (p) std::atomic<uint64_t>(0);
}

namespace {
uint64_t g_local = 0;  // when the shared page could not be mapped
}

void note_denial() {
  if (g_max == 0) return;
  uint64_t n = g_count ? g_count->fetch_add(1) + 1 : ++g_local;
  if (n >= g_max) g_pending_any = 1;  // ends at the next command boundary
}

bool denial_limit_reached() {
  if (g_max == 0) return false;
  return (g_count ? g_count->load() : g_local) >= g_max;
}

void end_now_if_denial_limit(Shell& sh) {
  if (!denial_limit_reached()) return;
  // Killed before the message: a program must not go on refusing (probing) while the
  // session ends. The session cgroup is killed as a whole by the end of the session
  // (end_session); these are lash's own children, and their process groups under job
  // control, for a session without one.
  for (pid_t pid : sh.live_children) {
    (void)::kill(pid, SIGKILL);
    (void)::kill(-pid, SIGKILL);  // ESRCH when PID leads no group of its own
  }
  end_for_denials(sh);
}

void end_for_denials(Shell& sh) {
  sh.flush_all();
  if (!sh.in_subshell)
    write_all(2, "lash: the session ends: " + std::to_string(g_max) +
                     " refused actions reached the profile's limit ([monitoring] max_denials)\n");
  // No EXIT trap: the session is over, not the script's to continue.
  sh.traps[0].clear();
  sh.trap_set[0] = false;
  if (sh.in_subshell) sh.child_exit(126);
  if (sh.opt.interactive) hangup_jobs(sh);
  sh.exit_shell(126);
}

}  // namespace lash::exec
