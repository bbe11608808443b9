// What the session prepared once for its sandbox (ruleset fd, seccomp program,
// cgroup, limits). The shell core launches with an empty Prepared: plain fork/exec.
// Children need no cgroup step: prepare() moved lash itself into the session cgroup,
// and a fork is born in its parent's cgroup.
// prepare() (prepare.h) fills it from a SandboxPlan; child.cpp applies it after fork.
#pragma once
#include <linux/filter.h>
#include <sys/resource.h>

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/netns.h"
#include "sandbox/ns.h"

namespace lash::sandbox {

struct RlimitSetting {
  int resource = 0;
  rlim_t soft = RLIM_INFINITY;
  rlim_t hard = RLIM_INFINITY;
};

struct Prepared {
  // ---- applied in every child, in this order (child.cpp) ----
  unique_fd userns, mntns;              // session namespaces (protect binds); entered with setns
  unique_fd ipcns;                      // the session's IPC namespace (ns.h); entered with setns
  unique_fd netns;                      // the session's network namespace (netns.h); entered with setns
  std::vector<RlimitSetting> rlimits;
  bool drop_caps = false;               // drop the escape-prone capabilities (root sessions)
  bool no_new_privs = false;
  unique_fd landlock;                   // ruleset fd (O_CLOEXEC), invalid: no Landlock
  std::vector<sock_filter> seccomp;     // BPF program, empty: no filter; loaded last
  std::vector<sock_filter> seccomp_broker;  // the same for the fd broker (openat2 kept)
  bool close_fds = false;               // mark every fd above 2 close-on-exec before fd_ops

  // ---- session state, never touched by children ----
  std::string tmpdir;                   // session tmpdir (0700), "" for none: export as TMPDIR
  std::vector<std::string> cgroup_dirs; // session cgroups, killed and removed at exit
  unique_fd watchdog;                   // write end of the watchdog pipe
  unique_fd signal_relay;               // the watchdog's signal relay (watchdog.h)
  unique_fd join_pending;               // read end: the watchdog's answer to moving lash in (v2)
  unique_fd watchdog_go;                // closed once the namespace helper is forked (watchdog.h)
  bool v1_tracks = false;               // lash is in v1 cgroups that also find every child
  NamespaceHelper ns_helper;            // the session namespace being made (begin_prepare)
  bool ns_started = false, ns_required = false;
  bool ns_masks = false;               // the namespace masks unix sockets (ns.h)
  std::vector<std::string> mask_keep;  // except those beneath these
  std::optional<Error> ns_start_error;  // the helper could not even be started
  std::vector<std::string> quarantine;  // renamed aside at kill_all if planted (watchdog.h)
  // Device files the plan grants read-write as they are (/dev/null, /dev/tty, ...):
  // the shell opens these itself, without a broker round trip (70 us each), since
  // the answer is the same and the path is not the user's to swap.
  std::vector<std::string> direct_devices;
  bool begun = false;                   // begin_prepare() ran
  bool pids_limited = false;            // a pids controller limits the session cgroup
  int landlock_abi = 0;                 // ABI the ruleset was built for
  std::vector<std::string> notes;       // degradations and fallbacks, to be said once
  // The relay's listening sockets, until SessionSandbox::start_relay() hands them on.
  std::vector<RelayListener> relay_listeners;
  NetInterception net_mode = NetInterception::nftables;
  pid_t relay_pid = -1;                 // killed by kill_all()

  // True when a child has anything to apply.
  bool active() const {
    return mntns.valid() || ipcns.valid() || netns.valid() || !rlimits.empty() || drop_caps || no_new_privs || landlock.valid() ||
           !seccomp.empty() || close_fds;
  }
};

}  // namespace lash::sandbox
