// SandboxPlan: what the kernel will enforce for one session, as plain data.
// compile() makes it from the resolved profile (pure); prepare() turns it into
// kernel objects; `profile review` prints it (plan_print.h). Nothing here is
// Linux-specific, so another backend (macOS) can read the same plan.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lash::sandbox {

// Abstract rights on a path. Each backend maps them to its own mechanism.
namespace rights {
inline constexpr unsigned read = 1U << 0;     // read files, list directories
inline constexpr unsigned write = 1U << 1;    // write, create, remove, rename, truncate (never device nodes)
inline constexpr unsigned execute = 1U << 2;  // run as a program or ELF interpreter
inline constexpr unsigned ioctl_dev = 1U << 3;  // ioctl on device files (terminals)
inline constexpr unsigned list = 1U << 4;       // list directories only (no file contents)
}  // namespace rights

struct PathRule {
  std::string path;    // absolute
  unsigned rights = 0;
  bool file = false;   // a per-file grant (exec grants): only file rights apply
  std::string origin;  // "baseline", "read_only", "read_write", "sandbox", "workdir",
                       // "tmpdir", "spawn_allowlist", "interpreter", "library"
  std::string note;    // e.g. "library of /usr/bin/git"
  // What the session resolved at PATH (st_dev, st_ino), for the profile's writable and
  // read_only grants: the ruleset refuses to grant another file found there when it is
  // opened. 0: unchecked (the system baseline, the exec grants, missing paths).
  uint64_t dev = 0, ino = 0;
};

struct PortRange {
  uint16_t first = 0, last = 0;
};

struct Limits {  // 0 = unlimited
  uint64_t memory = 0;       // bytes, RLIMIT_AS and memory.max
  uint64_t cpu_seconds = 0;  // RLIMIT_CPU
  uint64_t file_size = 0;    // bytes, RLIMIT_FSIZE
  uint64_t processes = 0;    // pids.max (RLIMIT_NPROC fallback)
  uint64_t open_files = 0;   // RLIMIT_NOFILE
};

enum class Enforcement { enforce, warn };

struct SandboxPlan {
  // Filesystem. restrict_fs=false: no Landlock filesystem rules at all (the default
  // profile, or read_write = /).
  bool restrict_fs = false;
  std::vector<PathRule> paths;        // directory and file grants, including exec grants
  std::vector<std::string> protect;   // absolute paths kept read-only inside writable grants
  std::vector<std::string> noexec;    // writable grants mounted noexec (with an allowlist)
  bool mask_unix_sockets = false;     // cover pathname sockets outside the grants (Landlock < ABI 9)
  std::string tmpdir;                 // session tmpdir (made by make_session_tmpdir() before
                                      // compile; granted rw in paths), removed at exit
  Enforcement fs_enforcement = Enforcement::enforce;
  // Conditions under which the filesystem rules cannot hold: prepare() refuses the
  // profile's commands under `enforce` and says them once under `warn`.
  std::vector<std::string> fs_refusals;

  // Programs.
  bool spawn_any = true;
  bool deny_memfd_exec = false;       // seccomp: memfd_create, execveat(AT_EMPTY_PATH)

  // Network (Landlock TCP rules as a second wall; the relay is network.md's job).
  bool restrict_net = false;
  std::vector<PortRange> connect_ports;
  Enforcement net_enforcement = Enforcement::enforce;
  // The session's network namespace and relay (netns.h), under enforce and warn alike
  // (warn relays what it would refuse, and records it).
  bool net_relay = false;
  std::vector<PortRange> relay_ports;  // allowed TCP ports (the local-route fallback)
  // Local services (allow_bind, allow_loopback). BIND_PORTS: the session may listen on
  // them (Landlock bind rules) and its connections to loopback on them stay inside the
  // namespace (nftables does not redirect them). HOST_LOOPBACK_PORTS: relayed to this
  // host's own loopback (also in relay_ports, for the local-route listeners).
  std::vector<PortRange> bind_ports, host_loopback_ports;

  Limits limits;

  // Environment of children, for review; envp itself is built by policy::ChildEnv.
  std::vector<std::string> env_deny, env_force, env_pass;
  bool env_pass_set = false;

  // Always-on hardening when the profile restricts anything.
  bool seccomp = false;          // the enforcement.md filter
  bool scope_signals = false;    // Landlock ABI 6 scoping
  bool scope_abstract_unix = false;
  bool no_new_privs = false;
  bool drop_capabilities = false;  // ptrace, sys_admin, raw sockets, ... (matters for root)
  bool close_fds = false;        // close every fd above 2 (except redirection targets)

  // What review must show.
  std::vector<std::string> warnings;    // grants that weaken the policy
  std::vector<std::string> unenforced;  // what this kernel cannot enforce, and why

  // Nothing to apply: the child runs exactly as under a plain shell.
  bool empty() const {
    return !restrict_fs && !restrict_net && !net_relay && !seccomp && !no_new_privs && !drop_capabilities && !close_fds &&
           !scope_signals && !scope_abstract_unix && limits.memory == 0 &&
           limits.cpu_seconds == 0 && limits.file_size == 0 && limits.processes == 0 &&
           limits.open_files == 0 && tmpdir.empty();
  }
};

// Printing for `profile review`.
std::string rights_string(unsigned r);                 // "r-x", "rw-", "rwxd" ...
std::vector<std::string> network_relay_lines(const SandboxPlan&);  // net_review.cpp
std::vector<std::string> plan_lines(const SandboxPlan&);  // the text form, one item per line

}  // namespace lash::sandbox
