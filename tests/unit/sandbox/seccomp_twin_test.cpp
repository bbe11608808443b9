// Every seccomp rule, alone: each call is made in a child that loads only lash's
// session filter (no Landlock, no dropped capabilities, no namespaces of lash), and
// again in a twin child without it. The call must be refused with the filter and
// reach the kernel without it. So no other layer can be what refuses, and a rule
// that is deleted, mistyped or masked fails here. Where the call needs a capability
// the twin runs in a new user namespace, where it has it (mount, setns, unshare), or
// as root in the host's (module loading, kexec, open_by_handle_at): those rows say so
// when they cannot run. "Reaches the kernel" is a success, or an error the filter
// never gives (the filter answers EPERM, ENOSYS for clone3 and openat2).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/kcmp.h>
#include <linux/seccomp.h>
#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

#include "machine_probe.h"
#include "sandbox/seccomp_filter.h"

namespace {

using lash::sandbox::SandboxPlan;

const std::vector<sock_filter>& session_filter() {
  static const std::vector<sock_filter> f = [] {
    SandboxPlan plan;
    plan.deny_memfd_exec = true;
    auto s = lash::sandbox::build_seccomp(plan);
    REQUIRE(s.ok());
    auto a = lash::sandbox::build_arg_filter(false);
    REQUIRE(a.ok());
    return lash::sandbox::join_filters(*a, *s);  // as prepare() joins them
  }();
  return f;
}

enum class Where { host, userns };

// "ok", or the errno's name, of FN run in a child (the filter loaded first, or not).
std::string attempt(bool filtered, Where where, const std::function<long()>& fn) {
  int p[2];
  REQUIRE(pipe2(p, O_CLOEXEC) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::string out;
    if (where == Where::userns && unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWUTS) != 0) {
      out = "setup:userns";
    } else if (filtered) {
      const auto& f = session_filter();
      sock_fprog prog{static_cast<unsigned short>(f.size()), const_cast<sock_filter*>(f.data())};
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        out = "setup:seccomp";
    }
    if (out.empty()) {
      errno = 0;
      long r = fn();
      const char* name = strerrorname_np(errno);
      out = r >= 0 ? "ok" : (name ? name : "E?");
    }
    (void)!write(p[1], out.data(), out.size());
    _exit(0);
  }
  close(p[1]);
  char buf[64] = {};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  int ws = 0;
  waitpid(pid, &ws, 0);
  if (n <= 0) return WIFSIGNALED(ws) ? "signal:" + std::to_string(WTERMSIG(ws)) : "nothing";
  return std::string(buf, static_cast<size_t>(n));
}

bool reached_kernel(const std::string& tok, const char* refusal) { return tok != refusal && tok.rfind("setup:", 0) != 0 && tok != "nothing"; }

// The row: refused (REFUSAL) with the filter, reaching the kernel without it.
// SYSCTL_GATED: the kernel itself refuses the call to unprivileged users here when a
// sysctl says so (unprivileged_bpf_disabled, perf_event_paranoid, legacy_tiocsti):
// as such a user the twin cannot run, which is said; as root it must.
void twin(const char* what, Where where, const std::function<long()>& fn, const char* refusal = "EPERM",
          bool sysctl_gated = false) {
  std::string call = what;
  CAPTURE(call);
  std::string outside = attempt(false, where, fn);
  CAPTURE(outside);
  if (where == Where::userns && outside == "setup:userns") {
    MESSAGE("SKIPPED " << std::string(what) << ": no user namespace for this user (the harness's probe)");
    REQUIRE(!sbtest::machine().user_namespaces);
    return;
  }
  if (sysctl_gated && geteuid() != 0 && (outside == "EPERM" || outside == "EACCES")) {
    MESSAGE("SKIPPED " << std::string(what) << ": the kernel refuses it to this user without the filter (" << outside << ")");
    return;
  }
  CHECK(reached_kernel(outside, refusal));
  CHECK(attempt(true, where, fn) == refusal);
}

// Rows whose twin needs a capability only root in the host's namespace has.
bool need_host_root(const char* what) {
  if (geteuid() == 0) return true;
  MESSAGE("SKIPPED " << std::string(what) << ": the twin needs root in the host's user namespace");
  return false;
}

long sys(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0) { return syscall(nr, a, b, c, d, e); }

// A 32-bit call through int $0x80 (the i386 ABI of an x86-64 kernel).
long sys32(long nr, long a = 0, long b = 0, long c = 0) {
#if defined(__x86_64__)
  long ret;
  asm volatile("int $0x80" : "=a"(ret) : "0"(nr), "b"(a), "c"(b), "d"(c) : "memory", "r8", "r9", "r10", "r11");
  if (ret < 0 && ret > -4096) {
    errno = static_cast<int>(-ret);
    return -1;
  }
  return ret;
#else
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace

TEST_CASE("seccomp twins: process access (ptrace, process_vm_*, pidfd_getfd, process_madvise, kcmp)") {
  twin("ptrace(TRACEME)", Where::host, [] { return ptrace(PTRACE_TRACEME, 0, nullptr, nullptr); });
  static char src[8] = "x", dst[8];
  twin("process_vm_readv(self)", Where::host, [] {
    iovec l{dst, 1}, r{src, 1};
    return sys(SYS_process_vm_readv, getpid(), reinterpret_cast<long>(&l), 1, reinterpret_cast<long>(&r), 1);
  });
  twin("process_vm_writev(self)", Where::host, [] {
    iovec l{src, 1}, r{dst, 1};
    return sys(SYS_process_vm_writev, getpid(), reinterpret_cast<long>(&l), 1, reinterpret_cast<long>(&r), 1);
  });
  twin("pidfd_getfd(self, 0)", Where::host, [] {
    long pfd = sys(SYS_pidfd_open, getpid(), 0);
    return sys(SYS_pidfd_getfd, pfd, 0, 0);
  });
  twin("process_madvise(self, bad vector)", Where::host, [] {
    long pfd = sys(SYS_pidfd_open, getpid(), 0);
    return sys(SYS_process_madvise, pfd, 0, 0, MADV_COLD, 0);
  });
  twin("kcmp(self, self, KCMP_FILE 0 0)", Where::host,
       [] { return sys(SYS_kcmp, getpid(), getpid(), KCMP_FILE, 0, 0); });
}

TEST_CASE("seccomp twins: namespaces (unshare/clone with CLONE_NEWUSER, clone3, setns)") {
  twin("unshare(CLONE_NEWUSER)", Where::host, [] { return unshare(CLONE_NEWUSER); });
  twin("clone(CLONE_NEWUSER)", Where::host, [] {
    long pid = sys(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) _exit(0);
    if (pid > 0) waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return pid;
  });
  // clone3 is ENOSYS so that libc falls back to clone, where the flag is visible
  twin("clone3(size 0)", Where::host, [] { return sys(SYS_clone3, 0, 0); }, "ENOSYS");
  // setns into the namespace one is in: allowed by the kernel with CAP_SYS_ADMIN in
  // its owner, which the user namespace gives
  twin("setns(own uts)", Where::userns, [] {
    int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
    return setns(fd, CLONE_NEWUTS);
  });
}

TEST_CASE("seccomp twins: the mount family, in a user namespace where mounting is allowed") {
  static char dir[] = "/tmp/lash-sctwin-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  twin("mount(tmpfs)", Where::userns, [] { return mount("none", dir, "tmpfs", 0, nullptr); });
  twin("umount2", Where::userns, [] {
    // mounted before the filter is loaded would need a hook; unmounting what is not
    // mounted reaches the kernel's EINVAL without the filter
    return umount2(dir, 0);
  });
  twin("pivot_root", Where::userns, [] { return sys(SYS_pivot_root, reinterpret_cast<long>(dir), reinterpret_cast<long>(dir)); });
  twin("open_tree", Where::userns, [] { return sys(SYS_open_tree, AT_FDCWD, reinterpret_cast<long>(dir), 1 /* OPEN_TREE_CLONE */); });
  twin("fsopen(tmpfs)", Where::userns, [] { return sys(SYS_fsopen, reinterpret_cast<long>("tmpfs"), 0); });
  twin("fspick", Where::userns, [] { return sys(SYS_fspick, AT_FDCWD, reinterpret_cast<long>(dir), 0); });
  twin("fsconfig(bad fd)", Where::userns, [] { return sys(SYS_fsconfig, -1, 0, 0, 0, 0); });
  twin("fsmount(bad fd)", Where::userns, [] { return sys(SYS_fsmount, -1, 0, 0); });
  twin("move_mount(bad fd)", Where::userns, [] { return sys(SYS_move_mount, -1, reinterpret_cast<long>(""), -1, reinterpret_cast<long>(""), 0); });
  twin("mount_setattr(bad flags)", Where::userns, [] { return sys(SYS_mount_setattr, AT_FDCWD, reinterpret_cast<long>(dir), ~0L, 0, 0); });
  rmdir(dir);
}

TEST_CASE("seccomp twins: keys, bpf, perf, io_uring") {
  twin("keyctl(GET_KEYRING_ID)", Where::host,
       [] { return sys(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1); });
  twin("add_key(user)", Where::host, [] {
    return sys(SYS_add_key, reinterpret_cast<long>("user"), reinterpret_cast<long>("lash-twin"),
               reinterpret_cast<long>("v"), 1, KEY_SPEC_PROCESS_KEYRING);
  });
  twin("request_key(missing)", Where::host, [] {
    return sys(SYS_request_key, reinterpret_cast<long>("user"), reinterpret_cast<long>("lash-none"), 0, 0);
  });
  twin("bpf(bad command)", Where::host, [] { return sys(SYS_bpf, 0x7fff, 0, 0); }, "EPERM", true);
  twin("perf_event_open(NULL)", Where::host, [] { return sys(SYS_perf_event_open, 0, 0, -1, -1, 0); }, "EPERM", true);
  std::string io = attempt(false, Where::host, [] { return sys(SYS_io_uring_setup, 1, 0); });
  if (io == "ENOSYS" || io == "EPERM") {
    MESSAGE("SKIPPED io_uring: the kernel answers " << io << " without the filter (io_uring disabled here)");
  } else {
    twin("io_uring_setup(NULL params)", Where::host, [] { return sys(SYS_io_uring_setup, 1, 0); });
    twin("io_uring_enter(bad fd)", Where::host, [] { return sys(SYS_io_uring_enter, -1, 0, 0, 0, 0); });
    twin("io_uring_register(bad fd)", Where::host, [] { return sys(SYS_io_uring_register, -1, 0, 0, 0); });
  }
}

TEST_CASE("seccomp twins: vsock sockets (a way to the hypervisor no namespace confines)") {
  std::string plain = attempt(false, Where::host, [] { return sys(SYS_socket, AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0); });
  if (plain == "EAFNOSUPPORT") {
    MESSAGE("SKIPPED socket(AF_VSOCK): this kernel has no vsock support (" << plain << " without the filter)");
    CHECK(attempt(true, Where::host, [] { return sys(SYS_socket, AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0); }) == "EPERM");
    return;
  }
  twin("socket(AF_VSOCK)", Where::host, [] { return sys(SYS_socket, AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0); });
  // An IPv4 socket is untouched by the rule.
  CHECK(attempt(true, Where::host, [] { return sys(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0); }) == "ok");
}

TEST_CASE("seccomp twins: modules, kexec, open_by_handle_at (root in the host's namespace)") {
  if (need_host_root("module loading")) {
    twin("delete_module(missing)", Where::host, [] { return sys(SYS_delete_module, reinterpret_cast<long>("lash_no_such_module"), O_NONBLOCK); });
    twin("finit_module(bad fd)", Where::host, [] { return sys(SYS_finit_module, -1, reinterpret_cast<long>(""), 0); });
    twin("init_module(NULL)", Where::host, [] { return sys(SYS_init_module, 0, 0, reinterpret_cast<long>("")); });
  }
  if (need_host_root("kexec")) {
    std::string k = attempt(false, Where::host, [] { return sys(SYS_kexec_load, 0, 0, 0, 0x7fff0000L); });
    if (k == "EPERM" || k == "ENOSYS") MESSAGE("SKIPPED kexec_load: " << k << " without the filter (kexec disabled here)");
    else twin("kexec_load(bad flags)", Where::host, [] { return sys(SYS_kexec_load, 0, 0, 0, 0x7fff0000L); });
    std::string kf = attempt(false, Where::host, [] { return sys(SYS_kexec_file_load, -1, -1, 0, 0, 0x7fff0000L); });
    if (kf == "EPERM" || kf == "ENOSYS") MESSAGE("SKIPPED kexec_file_load: " << kf << " without the filter");
    else twin("kexec_file_load(bad flags)", Where::host, [] { return sys(SYS_kexec_file_load, -1, -1, 0, 0, 0x7fff0000L); });
  }
  if (need_host_root("open_by_handle_at")) {
    twin("open_by_handle_at(bad fd)", Where::host, [] { return sys(SYS_open_by_handle_at, -1, 0, O_RDONLY); });
  }
}

TEST_CASE("seccomp twins: terminal injection (TIOCSTI, TIOCLINUX), also with the upper half set") {
  int master = -1, slave = -1;
  REQUIRE(openpty(&master, &slave, nullptr, nullptr, nullptr) == 0);
  static int s;
  s = slave;
  twin("ioctl(TIOCSTI)", Where::host, [] {
    char c = 'x';
    return ioctl(s, TIOCSTI, &c);
  }, "EPERM", true);
  twin("ioctl(TIOCSTI | 1 << 32)", Where::host, [] {
    char c = 'x';
    return sys(SYS_ioctl, s, static_cast<long>(TIOCSTI | (1UL << 32)), reinterpret_cast<long>(&c));
  }, "EPERM", true);
  twin("ioctl(TIOCLINUX)", Where::host, [] {
    char sub = 6;  // TIOCL_GETSHIFTSTATE: EINVAL on a pty, never the filter's EPERM
    return ioctl(s, TIOCLINUX, &sub);
  });
  // the twin of the argument: another ioctl on the same terminal passes the filter
  CHECK(attempt(true, Where::host, [] {
          winsize w{};
          return ioctl(s, TIOCGWINSZ, &w);
        }) == "ok");
  close(master);
  close(slave);
}

TEST_CASE("seccomp twins: memfd_create and execveat(AT_EMPTY_PATH) with deny_memfd_exec") {
  twin("memfd_create", Where::host, [] { return sys(SYS_memfd_create, reinterpret_cast<long>("x"), MFD_CLOEXEC); });
  twin("execveat(-1, \"\", AT_EMPTY_PATH)", Where::host,
       [] { return sys(SYS_execveat, -1, reinterpret_cast<long>(""), 0, 0, AT_EMPTY_PATH); });
  // execveat of a path (no AT_EMPTY_PATH) passes the filter: ENOENT from the kernel
  CHECK(attempt(true, Where::host, [] {
          return sys(SYS_execveat, AT_FDCWD, reinterpret_cast<long>("/nonexistent-lash"), 0, 0, 0);
        }) == "ENOENT");
}

TEST_CASE("seccomp twins: pid-addressed calls are refused for any pid but 0, which works") {
  pid_t kid = fork();
  REQUIRE(kid >= 0);
  if (kid == 0) {
    setpgid(0, 0);  // a group of its own: the PGRP forms below touch only it
    pause();
    _exit(0);
  }
  static pid_t k;
  k = kid;
  setpgid(kid, kid);
  twin("prlimit64(child, NOFILE, set)", Where::host, [] {
    rlimit r{};
    getrlimit(RLIMIT_NOFILE, &r);
    return sys(SYS_prlimit64, k, RLIMIT_NOFILE, reinterpret_cast<long>(&r), 0);
  });
  twin("setpriority(PROCESS, child)", Where::host,
       [] { return setpriority(PRIO_PROCESS, static_cast<id_t>(k), getpriority(PRIO_PROCESS, static_cast<id_t>(k))); });
  twin("setpriority(PGRP, child's group)", Where::host,
       [] { return setpriority(PRIO_PGRP, static_cast<id_t>(k), getpriority(PRIO_PGRP, static_cast<id_t>(k))); });
  twin("sched_setaffinity(child)", Where::host, [] {
    cpu_set_t set;
    sched_getaffinity(k, sizeof set, &set);
    return sched_setaffinity(k, sizeof set, &set);
  });
  twin("sched_setscheduler(child, OTHER)", Where::host, [] {
    sched_param sp{};
    return sched_setscheduler(k, SCHED_OTHER, &sp);
  });
  twin("sched_setparam(child)", Where::host, [] {
    sched_param sp{};
    return sched_setparam(k, &sp);
  });
  twin("ioprio_set(PROCESS, child)", Where::host, [] { return sys(SYS_ioprio_set, 1, k, 0); });
  twin("ioprio_set(PGRP, child's group)", Where::host, [] { return sys(SYS_ioprio_set, 2, k, 0); });
  // The group and user forms with who = 0 (the caller's own group, its uid) reach
  // processes outside too (lash's group in a script, every process of the user):
  // refused by "which" alone. The attempt leads a group of its own, so the twin
  // touches nothing else, and sets the priority it already has.
  twin("setpriority(PGRP, 0)", Where::host, [] {
    if (setpgid(0, 0) != 0) return -1L;
    return static_cast<long>(setpriority(PRIO_PGRP, 0, getpriority(PRIO_PROCESS, 0)));
  });
  twin("ioprio_set(PGRP, 0)", Where::host, [] {
    if (setpgid(0, 0) != 0) return -1L;
    return sys(SYS_ioprio_set, 2, 0, sys(SYS_ioprio_get, 1, 0));
  });
  // the caller itself, by pid 0, passes
  CHECK(attempt(true, Where::host, [] {
          rlimit r{};
          getrlimit(RLIMIT_NOFILE, &r);
          return sys(SYS_prlimit64, 0, RLIMIT_NOFILE, reinterpret_cast<long>(&r), 0);
        }) == "ok");
  CHECK(attempt(true, Where::host, [] { return setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0)); }) == "ok");
  kill(kid, SIGKILL);
  waitpid(kid, nullptr, 0);
}

TEST_CASE("seccomp twins: no setuid or setgid modes (chmod family, open with O_CREAT), 0755 passes") {
  static std::string dir;
  char tmpl[] = "/tmp/lash-sctwin-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  dir = tmpl;
  static std::string f;
  f = dir + "/f";
  close(open(f.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
  twin("chmod 4755", Where::host, [] { return chmod(f.c_str(), 04755); });
  twin("chmod 2755", Where::host, [] { return chmod(f.c_str(), 02755); });
  twin("fchmodat 4755", Where::host, [] { return fchmodat(AT_FDCWD, f.c_str(), 04755, 0); });
  twin("open O_CREAT 4755", Where::host, [] {
    return open((dir + "/n" + std::to_string(getpid())).c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 04755);
  });
  twin("mknod 4755 fifo", Where::host, [] { return mknod((dir + "/p" + std::to_string(getpid())).c_str(), S_IFIFO | 04755, 0); });
  twin("openat2", Where::host, [] {
    struct { uint64_t flags, mode, resolve; } how{O_RDONLY | O_CLOEXEC, 0, 0};
    return sys(SYS_openat2, AT_FDCWD, reinterpret_cast<long>(f.c_str()), reinterpret_cast<long>(&how), sizeof how);
  }, "ENOSYS");
  CHECK(attempt(true, Where::host, [] { return chmod(f.c_str(), 0755); }) == "ok");
  std::string cmd = "rm -rf " + dir;
  CHECK(system(cmd.c_str()) == 0);
}

TEST_CASE("seccomp twins: the 32-bit i386 ABI (int $0x80) meets the same rules") {
#if defined(__x86_64__)
  // i386 numbers: ptrace 26, unshare 310, chmod 15, getpid 20
  std::string probe = attempt(false, Where::host, [] { return sys32(20); });
  if (probe != "ok") {
    MESSAGE("SKIPPED: no i386 emulation in this kernel (getpid via int $0x80: " << probe << ")");
    return;
  }
  twin("i386 ptrace(TRACEME)", Where::host, [] { return sys32(26, PTRACE_TRACEME); });
  twin("i386 unshare(CLONE_NEWUSER)", Where::host, [] { return sys32(310, CLONE_NEWUSER); });
  static char path[] = "/tmp/lash-sctwin32-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  // the pointer must fit in 32 bits for int $0x80: a static's address does in a
  // non-PIE binary only, so the path is copied to a low mapping
  void* low = mmap(reinterpret_cast<void*>(0x10000000), 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  REQUIRE(low != MAP_FAILED);
  std::strcpy(static_cast<char*>(low), path);
  static long lowp;
  lowp = reinterpret_cast<long>(low);
  if (lowp > 0xffffffffL) {
    MESSAGE("SKIPPED i386 chmod: no mapping below 4 GiB");
  } else {
    twin("i386 chmod 4755", Where::host, [] { return sys32(15, lowp, 04755); });
    CHECK(attempt(true, Where::host, [] { return sys32(15, lowp, 0755); }) == "ok");
  }
  munmap(low, 4096);
  unlink(path);
#else
  MESSAGE("SKIPPED: not x86-64");
#endif
}

TEST_CASE("seccomp: every rule's call is known to libseccomp (a typo is an error, not a missing rule)") {
  SandboxPlan plan;
  plan.deny_memfd_exec = true;
  auto s = lash::sandbox::build_seccomp(plan);
  CHECK(s.ok());
  auto a = lash::sandbox::build_arg_filter(true);
  CHECK(a.ok());
}
