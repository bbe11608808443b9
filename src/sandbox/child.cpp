// The child side of every process lash starts. This is the ONLY file in lash that
// calls execve.
//
// Runs between clone and execve, so it must be async-signal-safe: lash has threads,
// and a lock held by another thread at fork time stays held forever in the child.
// launch()'s child also shares lash's memory (CLONE_VM|CLONE_VFORK, as posix_spawn
// does): whatever it wrote to the heap or a global would be lash's. Therefore: no
// allocation, no stdio, no C++ library calls that may allocate, no locks, no
// exceptions, no writes but to its stack and ChildArgs::result. The parent pre-built
// every string and array (child.h); this file only reads them and makes system
// calls. Every failure is reported to the parent and ends the child: a step that
// fails never turns into a run without that step.
//
// The order of the sequence (examples.md §3.6, enforcement.md "For every fork"):
//   1. signal dispositions back to what a new program expects, mask cleared
//   2. process group (job control)
//   3. sandbox steps from Prepared, see apply_sandbox() (an empty Prepared applies
//      nothing, so the default profile runs as under a plain shell)
//   4. every fd above 2 marked close-on-exec (close_range), so only 0-2 and the
//      redirection targets reach the program
//   5. redirections (fd_ops), opened here so that the sandbox checks them
//   6. execve with the envp the parent built from the policy
#include "sandbox/child.h"

#include <fcntl.h>
#include <sched.h>
#include <linux/capability.h>
#include <linux/close_range.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <cstring>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "sandbox/landlock_abi.h"

namespace lash::sandbox::detail {
namespace {

// Set once this process is under the session sandbox (a fork_shell child, or a child
// of one). Landlock domains, seccomp filters, NO_NEW_PRIVS, rlimits and the cgroup
// are all inherited by forks, so re-applying would only stack layers (Landlock
// allows 16, seccomp has an instruction budget).
volatile sig_atomic_t g_sandboxed = 0;

// Set in the fd broker only (apply_broker_sandbox): it loads Prepared::seccomp_broker,
// which keeps openat2.
volatile sig_atomic_t g_broker = 0;

// reserve_file(): the files no program may open (device and inode).
struct ReservedFile {
  dev_t dev;
  ino_t ino;
};
ReservedFile g_reserved[8];
volatile sig_atomic_t g_reserved_count = 0;

// What a per-process /proc file holds of that process's memory or environment.
bool is_memory_file_name(const char* name) {
  static const char* const kNames[] = {"mem", "environ", "maps", "smaps", "smaps_rollup", "numa_maps",
                                       "pagemap", "auxv", "stack", "syscall", "map_files"};
  for (const char* n : kNames)
    if (strcmp(name, n) == 0) return true;
  return false;
}

// setns(CLONE_NEWNS) moves root and cwd to the namespace's root: go back to lash's
// cwd by name, so relative paths resolve inside the namespace (an fd to the old cwd
// would keep the child in the host's mounts, beside the read-only binds).
// The pid namespace needs nothing here: lash's forks are born in it. The IPC
// namespace is joined (SysV shared memory, semaphores and message queues of the host
// are then out of reach), then the user namespace where lash did not make its own
// and is not in it, then the mount namespace.
bool step_namespaces(const Prepared& p, const char* cwd) {
  if (p.ipcns.valid() && setns(p.ipcns.get(), CLONE_NEWIPC) != 0) return false;
  // The network namespace whose only way out is the relay (netns.h): joined while
  // this fork of lash still holds lash's capabilities in the user namespace owning it.
  if (p.netns.valid() && setns(p.netns.get(), CLONE_NEWNET) != 0) return false;
  if (!p.mntns.valid()) return true;
  if (p.userns.valid() && setns(p.userns.get(), CLONE_NEWUSER) != 0) return false;
  if (setns(p.mntns.get(), CLONE_NEWNS) != 0) return false;
  return cwd == nullptr || chdir(cwd) == 0;
}

// The profile's limits, never above what the child already has: a script's own
// `ulimit` (soft or hard, lowered below the profile's value) binds the programs it
// starts, as in any shell, and a hard limit lash inherited lower than the profile's
// is kept rather than failing the spawn (raising one needs CAP_SYS_RESOURCE).
bool step_rlimits(const Prepared& p) {
  for (const RlimitSetting& r : p.rlimits) {
    struct rlimit cur {};
    if (getrlimit(r.resource, &cur) != 0) return false;
    struct rlimit lim {std::min(r.soft, cur.rlim_cur), std::min(r.hard, cur.rlim_max)};
    if (lim.rlim_cur > lim.rlim_max) lim.rlim_cur = lim.rlim_max;
    if (setrlimit(r.resource, &lim) != 0) return false;
  }
  return true;
}

// The script's own hard file-size limit, which lash keeps off itself so that its
// audit log stays writable (builtins/session.cpp, ulimit): the program gets it. In
// place (the `exec` builtin, no fork) lash itself goes on if execve fails (an EXIT
// trap, the ENOEXEC fallback) and could not raise a lowered hard limit again for its
// audit log, so there only the soft limit is lowered.
bool step_script_file_size(const ChildArgs& a) {
  if (a.file_size_hard == RLIM_INFINITY) return true;
  struct rlimit cur {};
  if (getrlimit(RLIMIT_FSIZE, &cur) != 0) return false;
  struct rlimit lim {std::min(cur.rlim_cur, a.file_size_hard),
                     a.in_place ? cur.rlim_max : std::min(cur.rlim_max, a.file_size_hard)};
  return setrlimit(RLIMIT_FSIZE, &lim) == 0;
}

// Capabilities that would let a root child step around the other layers: ptrace
// (Landlock lets CAP_SYS_PTRACE read other processes' /proc/PID/environ), raw and
// admin network access (around the port rules and the relay), device nodes, module
// loading, file handles (around path rules), mounts, BPF; or reach outside the
// session: file capabilities (CAP_SETFCAP: a security.capability xattr outlives the
// session), setuid/setgid bits kept on write and chmod (CAP_FSETID), lifting hard
// rlimits (CAP_SYS_RESOURCE), priorities and real-time scheduling that starve the
// host (CAP_SYS_NICE), locked memory and other users' SysV IPC objects (CAP_IPC_*),
// the host's accounting, audit log, terminal hangup, wake alarms and suspend. Dropped
// from every set and from the bounding set, so an execve of a setuid or
// file-capability program cannot bring them back (NO_NEW_PRIVS also stops that).
// docs/security.md gives every capability its line.
constexpr int kDroppedCaps[] = {
    CAP_SYS_PTRACE, CAP_SYS_ADMIN, CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_BOOT, CAP_MKNOD,
    CAP_DAC_READ_SEARCH, CAP_NET_ADMIN, CAP_NET_RAW, CAP_SYS_TIME, CAP_SYSLOG, CAP_MAC_ADMIN,
    CAP_MAC_OVERRIDE, CAP_AUDIT_CONTROL, CAP_LINUX_IMMUTABLE, CAP_PERFMON, CAP_BPF,
    CAP_CHECKPOINT_RESTORE, CAP_SETFCAP, CAP_FSETID, CAP_SYS_RESOURCE, CAP_SYS_NICE,
    CAP_IPC_LOCK, CAP_IPC_OWNER, CAP_SYS_PACCT, CAP_SYS_TTY_CONFIG, CAP_AUDIT_WRITE,
    CAP_AUDIT_READ, CAP_WAKE_ALARM, CAP_BLOCK_SUSPEND};

bool step_drop_caps(const Prepared& p) {
  if (!p.drop_caps) return true;
  __user_cap_header_struct hdr{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &hdr, data) != 0) return false;
  bool can_setpcap = (data[CAP_TO_INDEX(CAP_SETPCAP)].effective & CAP_TO_MASK(CAP_SETPCAP)) != 0;
  for (int cap : kDroppedCaps) {
    // The bounding set needs CAP_SETPCAP; an unprivileged child has nothing to drop.
    if (can_setpcap && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return false;
    unsigned idx = CAP_TO_INDEX(cap), mask = CAP_TO_MASK(cap);
    data[idx].effective &= ~mask;
    data[idx].permitted &= ~mask;
    data[idx].inheritable &= ~mask;
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return false;
  return syscall(SYS_capset, &hdr, data) == 0;
}

bool step_no_new_privs(const Prepared& p) {
  return !p.no_new_privs || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
}

bool step_landlock(const Prepared& p) {
  return !p.landlock.valid() || ll::restrict_self(p.landlock.get(), 0) == 0;
}

bool load_filter(const std::vector<sock_filter>& filter) {
  struct sock_fprog prog {};
  prog.len = static_cast<unsigned short>(filter.size());
  prog.filter = const_cast<sock_filter*>(filter.data());
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

// Last among the restrictions: the filter must still allow what follows (open with
// mode 0666, dup2, close_range, execve), which it does.
bool step_seccomp(const Prepared& p) {
  const std::vector<sock_filter>& filter = g_broker ? p.seccomp_broker : p.seccomp;
  return filter.empty() || load_filter(filter);
}

bool step_close_fds(const Prepared& p) {
  if (!p.close_fds) return true;
  // Close-on-exec rather than close: in place (the `exec` builtin) lash goes on if
  // execve fails, with its own descriptors.
  if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return true;
  if (errno != ENOSYS && errno != EINVAL) return false;
  for (int fd = 3; fd < 65536; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);  // pre-5.11 kernels
  return true;
}

// Handlers do not survive execve anyway, but a handler must not run in the child
// before execve either (it would run lash code in the child, on lash's memory), so
// the parent blocks all signals around clone and the child resets before unblocking.
// One pass over the signals lash gave a handler (the parent's list, kept by
// note_signal_handler), not a query of all 64. Ignored signals are inherited across
// execve; lash's own ignores are undone via default_signals, and `&` jobs get their
// SIG_IGN via ignore_signals.
bool step_reset_signals(const ChildArgs& a) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (std::size_t i = 0; i < a.n_handled_signals; ++i)
    if (sigaction(a.handled_signals[i], &dfl, nullptr) != 0) return false;
  for (std::size_t i = 0; i < a.n_default_signals; ++i)
    if (sigaction(a.default_signals[i], &dfl, nullptr) != 0) return false;
  struct sigaction ign {};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  for (std::size_t i = 0; i < a.n_ignore_signals; ++i)
    if (sigaction(a.ignore_signals[i], &ign, nullptr) != 0) return false;
  return true;
}

bool step_unblock_signals() {
  sigset_t none;
  sigemptyset(&none);
  return sigprocmask(SIG_SETMASK, &none, nullptr) == 0;
}

// The parent makes the same call (whichever runs first wins the race); EACCES after
// execve does not concern us here since we have not exec'd yet.
// A foreground job takes the terminal before execve, with SIGTTOU blocked (it is in
// the background until the call succeeds). A failure is not fatal: the parent makes
// the same call.
bool step_process_group(const ChildArgs& a) {
  if (a.pgid < 0) return true;
  if (setpgid(0, a.pgid) != 0) return false;
  if (a.foreground_tty >= 0) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTTOU);
    if (sigprocmask(SIG_BLOCK, &block, &old) != 0) return false;
    (void)tcsetpgrp(a.foreground_tty, getpgrp());
    if (sigprocmask(SIG_SETMASK, &old, nullptr) != 0) return false;
  }
  return true;
}

// One redirection step. Returns the failing ChildStep, or ChildStep::none.
ChildStep apply_fd_op(const ChildArgs& a, const ChildFdOp& op) {
  switch (op.kind) {
    case FdOp::Kind::open: {
      int fd = open(op.path, op.flags, 0666);
      if (fd < 0) return ChildStep::fd_open;
      if (a.prepared->active() && refused_for_program(fd)) {
        close(fd);
        errno = EACCES;
        return ChildStep::fd_open;
      }
      if (fd == op.fd) return ChildStep::none;  // opened without O_CLOEXEC already
      int r = dup2(fd, op.fd);
      int saved = errno;
      close(fd);
      errno = saved;
      return r < 0 ? ChildStep::fd_open : ChildStep::none;
    }
    case FdOp::Kind::dup: {
      if (op.from == op.fd) {  // N>&N: make sure N exists and survives execve
        return fcntl(op.fd, F_SETFD, 0) == 0 ? ChildStep::none : ChildStep::fd_dup;
      }
      return dup2(op.from, op.fd) < 0 ? ChildStep::fd_dup : ChildStep::none;
    }
    case FdOp::Kind::close:
      if (op.fd < 0) {
        errno = EBADF;
        return ChildStep::fd_close;
      }
      close(op.fd);  // closing an already-closed fd is not an error for N>&-
      return ChildStep::none;
  }
  errno = EINVAL;
  return ChildStep::fd_open;
}

}  // namespace

void send_status(int fd, ChildStep step, int err, int index) {
  StatusRecord rec{static_cast<int>(step), err, index};
  for (;;) {
    ssize_t n = write(fd, &rec, sizeof rec);  // one write below PIPE_BUF: atomic
    if (n >= 0 || errno != EINTR) return;
  }
}

// enforcement.md "For every fork": the session cgroup is inherited (lash is in it),
// then the session namespaces, rlimits, capabilities, NO_NEW_PRIVS, Landlock, seccomp last.
int apply_sandbox(const Prepared& p, const char* cwd, StatusRecord* rec, bool remember) {
  if (g_sandboxed || !p.active()) return 0;
  if (!step_namespaces(p, cwd)) {
    *rec = StatusRecord{static_cast<int>(ChildStep::namespaces), errno, -1};
    return -1;
  }
  struct Step {
    bool (*run)(const Prepared&);
    ChildStep name;
  };
  static constexpr Step steps[] = {
      {step_rlimits, ChildStep::rlimits},
      {step_drop_caps, ChildStep::capabilities},
      {step_no_new_privs, ChildStep::no_new_privs},
      {step_landlock, ChildStep::landlock},
      {step_seccomp, ChildStep::seccomp},
  };
  for (const Step& s : steps) {
    if (!s.run(p)) {
      *rec = StatusRecord{static_cast<int>(s.name), errno, -1};
      return -1;
    }
  }
  if (remember) g_sandboxed = 1;
  return 0;
}

int apply_broker_sandbox(const Prepared& p, StatusRecord* rec) {
  g_broker = 1;
  return apply_sandbox(p, nullptr, rec, /*remember=*/true);
}

bool in_sandbox() { return g_sandboxed != 0; }

void reserve_file(int fd) {
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return;
  for (int i = 0; i < g_reserved_count; ++i)  // once each (every profile activation asks)
    if (g_reserved[i].dev == st.st_dev && g_reserved[i].ino == st.st_ino) return;
  if (g_reserved_count >= 8) return;
  g_reserved[g_reserved_count] = ReservedFile{st.st_dev, st.st_ino};
  g_reserved_count = g_reserved_count + 1;
}

bool refused_for_program(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return true;  // fail closed
  for (int i = 0; i < g_reserved_count; ++i)
    if (g_reserved[i].dev == st.st_dev && g_reserved[i].ino == st.st_ino) return true;
  struct statfs fs;
  if (fstatfs(fd, &fs) != 0) return true;
  if (fs.f_type != PROC_SUPER_MAGIC) return false;
  // "/proc/self/fd/" and the number, without stdio (this runs in the launch child).
  char link[32] = "/proc/self/fd/", digits[12], target[256];
  int nd = 0;
  for (unsigned v = static_cast<unsigned>(fd); nd == 0 || v != 0; v /= 10) digits[nd++] = static_cast<char>('0' + v % 10);
  size_t at = strlen(link);
  while (nd > 0) link[at++] = digits[--nd];
  link[at] = '\0';
  ssize_t n = readlink(link, target, sizeof target - 1);
  // No /proc/self in this /proc: the caller is not in its pid namespace (lash itself,
  // running `exec PROG` in the session's mount namespace), so no file of its memory
  // is reachable through it; another process's needs ptrace rights the sandbox took.
  if (n < 0 && errno == ENOENT) return false;
  if (n <= 0) return true;
  target[n] = '\0';
  const char* last = strrchr(target, '/');
  return is_memory_file_name(last ? last + 1 : target);
}

StatusRecord exec_sequence(const ChildArgs& a) {
  auto failed = [](ChildStep step, int index = -1) { return StatusRecord{static_cast<int>(step), errno, index}; };
  if (!step_reset_signals(a)) return failed(ChildStep::signals);
  if (!step_unblock_signals()) return failed(ChildStep::signals);
  if (!step_process_group(a)) return failed(ChildStep::process_group);

  StatusRecord rec{};
  // In place, lash itself is now under the sandbox: a failed execve leaves it there
  // (the ENOEXEC fallback then starts its programs without applying it again).
  if (apply_sandbox(*a.prepared, a.cwd, &rec, a.in_place) != 0) return rec;
  if (a.extra_landlock >= 0) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return failed(ChildStep::no_new_privs);
    if (ll::restrict_self(a.extra_landlock, 0) != 0) return failed(ChildStep::landlock);
  }
  if (!step_script_file_size(a)) return failed(ChildStep::rlimits);
  if (!step_close_fds(*a.prepared)) return failed(ChildStep::close_fds);

  for (std::size_t i = 0; i < a.n_fd_ops; ++i) {
    ChildStep st = apply_fd_op(a, a.fd_ops[i]);
    if (st != ChildStep::none) return failed(st, static_cast<int>(i));
  }

  execve(a.path, a.argv, a.envp);
  return failed(ChildStep::exec);
}

int clone_child(void* arg) {
  const ChildArgs& a = *static_cast<const ChildArgs*>(arg);
  StatusRecord rec = exec_sequence(a);
  *a.result = rec;
  return rec.step == static_cast<int>(ChildStep::exec) && rec.err == ENOENT ? 127 : 126;
}

}  // namespace lash::sandbox::detail
