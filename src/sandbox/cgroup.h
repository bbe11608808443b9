// The session cgroup: lash moves itself into it once when the sandbox is prepared, so
// every process it forks afterwards is born inside it (no per-fork migration), and
// processes that leave the process group (setsid, double fork) are still found and
// killed at exit. cgroup v2 tracks and kills; pids/memory limits come from v2 where
// those controllers are delegated, else from writable v1 controllers (hybrid hosts).
//
// Why lash joins rather than each child: every write to cgroup.procs takes the
// kernel's cgroup_threadgroup_rwsem for writing, which waits for an RCU grace period
// when none was taken recently (5-15 ms measured here). Paid per fork, that would
// dominate the sandbox's cost; paid once at prepare, it is a session start-up cost.
#pragma once
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/caps.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

struct SessionCgroup {
  std::string v2_dir;                 // "" when no writable cgroup v2
  std::vector<std::string> v1_dirs;   // v1 pids / memory children we created
  bool pids_limited = false;          // pids.max is set somewhere
  bool memory_limited = false;        // memory.max / memory.limit_in_bytes is set somewhere
  std::vector<std::string> notes;     // fallbacks, to be said once

  bool tracked() const { return !v2_dir.empty() || !v1_dirs.empty(); }
  std::vector<std::string> dirs() const;  // every directory, v2 first
};

// Creates the cgroups named `name` under lash's current cgroups and applies limits.
// Never fails for a missing feature (recorded in notes); fails when a limit was asked
// for, a controller is available, and writing it fails.
Result<SessionCgroup> create_session_cgroup(const Capabilities& caps, const Limits& limits,
                                            const std::string& name);

// SIGKILL every process in the given cgroup directories except SPARE (cgroup.kill
// where SPARE is not a member, else kill each pid until none is left), wait briefly
// for them to go, and remove the directories that no longer hold SPARE (a directory
// lash is still in is removed by the watchdog once lash has exited). Safe to call
// twice. SPARE = 0 spares nobody. SPARE_MAY_ARRIVE: SPARE may be moved into any of
// the directories meanwhile (by the watchdog), so none is killed as a whole and none
// is removed here. Used at exit, at profile switch and by the watchdog.
void kill_and_remove(const std::vector<std::string>& dirs, pid_t spare = 0, bool spare_may_arrive = false);

// Writes VALUE to a cgroup control file (cgroup.procs, tasks, pids.max, ...) with one
// write(), retried on EINTR: the kernel takes a control value whole or not at all.
Result<void> write_cgroup_file(const std::string& path, const std::string& value);

// True when PID is listed in DIR's cgroup.procs.
bool cgroup_has(const std::string& dir, pid_t pid);

// Pids currently in a cgroup directory (for tests and the fallback killer).
std::vector<pid_t> cgroup_pids(const std::string& dir);

}  // namespace lash::sandbox
