// The session cgroup: every process lash forks joins it before user code runs, so
// processes that leave the process group (setsid, double fork) are still found and
// killed at exit. cgroup v2 tracks and kills; pids/memory limits come from v2 where
// those controllers are delegated, else from writable v1 controllers (hybrid hosts).
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
  std::vector<unique_fd> procs;       // O_WRONLY|O_CLOEXEC cgroup.procs of each; the child writes "0"
  bool pids_limited = false;          // pids.max is set somewhere
  bool memory_limited = false;        // memory.max / memory.limit_in_bytes is set somewhere
  std::vector<std::string> notes;     // fallbacks, to be said once

  bool tracked() const { return !v2_dir.empty(); }
  std::vector<std::string> dirs() const;  // every directory, v2 first
};

// Creates the cgroups named `name` under lash's current cgroups and applies limits.
// Never fails for a missing feature (recorded in notes); fails when a limit was asked
// for, a controller is available, and writing it fails.
Result<SessionCgroup> create_session_cgroup(const Capabilities& caps, const Limits& limits,
                                            const std::string& name);

// SIGKILL every process in the given cgroup directories (cgroup.kill where present,
// else freeze + kill each pid), wait briefly for them to go, remove the directories.
// Safe to call twice. Used at exit and by the watchdog.
void kill_and_remove(const std::vector<std::string>& dirs);

// Pids currently in a cgroup directory (for tests and the fallback killer).
std::vector<pid_t> cgroup_pids(const std::string& dir);

}  // namespace lash::sandbox
