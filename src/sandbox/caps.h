// What this kernel and this session can enforce, probed once per session. The value
// is an input to compile() and to `profile review` / `lash --doctor`, so what is
// printed and what is enforced come from the same facts.
#pragma once
#include <string>
#include <vector>

namespace lash::sandbox {

struct CgroupV1Controller {
  std::string mount;     // e.g. /sys/fs/cgroup/pids
  std::string current;   // lash's cgroup in that hierarchy, e.g. "/" or "/a/b"
  bool writable = false; // we may create a child cgroup there
};

struct Capabilities {
  // Landlock: abi 0 means unavailable; landlock_error says why ("not built into this
  // kernel" for ENOSYS, "disabled at boot" for EOPNOTSUPP, ...).
  int landlock_abi = 0;
  std::string landlock_error;

  bool seccomp = false;          // seccomp filter mode available
  bool no_new_privs = false;     // PR_SET_NO_NEW_PRIVS available (always on Linux >= 3.5)

  // cgroup v2: the cgroup2 mount, lash's cgroup in it, whether a child may be created
  // there, and which controllers a child cgroup would get (cgroup.subtree_control
  // of the current cgroup, or cgroup.controllers when lash could enable them).
  std::string cgroup2_mount;     // "" when no cgroup2 is mounted
  std::string cgroup2_current;   // e.g. "/user.slice/..."; "" when unknown
  bool cgroup2_writable = false;
  bool cgroup2_kill = false;     // cgroup.kill exists (Linux 5.14+)
  std::vector<std::string> cgroup2_controllers;

  // cgroup v1 controllers beside v2 (hybrid hosts): pids and memory.
  CgroupV1Controller v1_pids;
  CgroupV1Controller v1_memory;

  bool user_namespaces = false;  // an unprivileged user namespace can be created
  bool root = false;             // euid 0: the session namespace needs no user namespace

  bool has_cgroup2_controller(const std::string& name) const;
  bool can_limit_pids() const;    // v2 pids delegated or v1 pids writable
  bool can_limit_memory() const;  // v2 memory delegated or v1 memory writable
};

// Probe the running kernel (reads /proc, tries harmless syscalls; forks once to test
// user namespaces). Never fails: a missing feature is recorded as absent.
Capabilities probe_capabilities();

// Human-readable lines, one per layer: "landlock: ABI 7", "cgroup v2: ...".
std::vector<std::string> describe(const Capabilities& caps);

}  // namespace lash::sandbox
