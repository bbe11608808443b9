// lash-probe: one attempt per run, one token on stdout ("ok", "EACCES", "EPERM", ...).
// Sandbox tests run it inside and outside the sandbox and compare the tokens, so a
// refusal is only believed when the same attempt succeeds without the restriction.
// Exit status: 0 when the token was printed, 2 on a usage error.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

namespace {

int token(int err) {
  if (err == 0) {
    puts("ok");
  } else {
    const char* name = strerrorname_np(err);
    puts(name ? name : "EUNKNOWN");
  }
  return 0;
}

int result(long rc) { return token(rc < 0 ? errno : 0); }

int open_read(const char* p) {
  int fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return token(errno);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    DIR* d = fdopendir(fd);
    if (!d) return token(errno);
    errno = 0;
    readdir(d);
    int e = errno;
    closedir(d);
    return token(e);
  }
  char c;
  ssize_t n = read(fd, &c, 1);
  int e = n < 0 ? errno : 0;
  close(fd);
  return token(e);
}

int open_write(const char* p, int extra) {
  int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC | extra, 0644);
  if (fd < 0) return token(errno);
  ssize_t n = write(fd, "x", 1);
  int e = n < 0 ? errno : 0;
  close(fd);
  return token(e);
}

// Run a program; "ok" when execve succeeded (whatever the program then does).
int exec_prog(int argc, char** argv) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return token(errno);
  pid_t pid = fork();
  if (pid == 0) {
    int nul = open("/dev/null", O_RDWR);
    dup2(nul, 0);
    dup2(nul, 1);
    dup2(nul, 2);
    execv(argv[0], argv);
    int e = errno;
    (void)!write(p[1], &e, sizeof e);
    _exit(127);
  }
  close(p[1]);
  int e = 0;
  ssize_t n = read(p[0], &e, sizeof e);
  waitpid(pid, nullptr, 0);
  (void)argc;
  return token(n == static_cast<ssize_t>(sizeof e) ? e : 0);
}

// Run a program to completion: "ok" for exit 0, "exit:N", "signal:N", or the errno
// of a failed execve.
int run_prog(char** argv) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return token(errno);
  pid_t pid = fork();
  if (pid == 0) {
    int nul = open("/dev/null", O_RDWR);
    dup2(nul, 0);
    dup2(nul, 1);
    dup2(nul, 2);
    execv(argv[0], argv);
    int e = errno;
    (void)!write(p[1], &e, sizeof e);
    _exit(127);
  }
  close(p[1]);
  int e = 0;
  ssize_t n = read(p[0], &e, sizeof e);
  int ws = 0;
  waitpid(pid, &ws, 0);
  if (n == static_cast<ssize_t>(sizeof e)) return token(e);
  if (WIFSIGNALED(ws)) return printf("signal:%d\n", WTERMSIG(ws)), 0;
  if (WEXITSTATUS(ws) != 0) return printf("exit:%d\n", WEXITSTATUS(ws)), 0;
  return token(0);
}

int memfd_exec() {
  int fd = static_cast<int>(syscall(SYS_memfd_create, "probe", 0));
  if (fd < 0) return token(errno);
  const char script[] = "#!/bin/sh\nexit 0\n";
  if (write(fd, script, sizeof script - 1) < 0) return token(errno);
  char* args[] = {const_cast<char*>("probe"), nullptr};
  char* env[] = {nullptr};
  pid_t pid = fork();
  if (pid == 0) {
    syscall(SYS_execveat, fd, "", args, env, AT_EMPTY_PATH);
    _exit(100 + (errno & 0x3f));
  }
  int ws = 0;
  waitpid(pid, &ws, 0);
  if (WIFEXITED(ws) && WEXITSTATUS(ws) >= 100) return token(WEXITSTATUS(ws) - 100);
  return token(0);
}

int tiocsti() {
  int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (fd < 0) fd = 0;
  char c = ' ';
  return result(ioctl(fd, TIOCSTI, &c));
}

int userns() {
  pid_t pid = fork();
  if (pid == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 100 + (errno & 0x3f));
  int ws = 0;
  waitpid(pid, &ws, 0);
  return token(WIFEXITED(ws) && WEXITSTATUS(ws) >= 100 ? WEXITSTATUS(ws) - 100 : 0);
}

int connect_tcp(const char* host, const char* port) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return token(errno);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(atoi(port)));
  if (inet_pton(AF_INET, host, &a.sin_addr) != 1) return token(EINVAL);
  return result(connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a));
}

int bind_tcp(const char* port) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return token(errno);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(atoi(port)));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return result(bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a));
}

int unix_connect(const char* name, bool abstract) {
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return token(errno);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  size_t n = strlen(name);
  if (n + 2 > sizeof a.sun_path) return token(ENAMETOOLONG);
  memcpy(a.sun_path + (abstract ? 1 : 0), name, n);
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + n + (abstract ? 1 : 0));
  return result(connect(s, reinterpret_cast<sockaddr*>(&a), len));
}

int ptrace_pid(pid_t pid) {
  long rc = ptrace(PTRACE_SEIZE, pid, nullptr, nullptr);
  if (rc == 0) ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
  return result(rc);
}

int rlimit_of(const std::string& name) {
  int res = name == "as" ? RLIMIT_AS : name == "cpu" ? RLIMIT_CPU : name == "fsize" ? RLIMIT_FSIZE
          : name == "nofile" ? RLIMIT_NOFILE : name == "nproc" ? RLIMIT_NPROC : -1;
  if (res < 0) return 2;
  struct rlimit r;
  if (getrlimit(res, &r) != 0) return token(errno);
  if (r.rlim_cur == RLIM_INFINITY) puts("unlimited");
  else printf("%llu\n", static_cast<unsigned long long>(r.rlim_cur));
  return 0;
}

// Fork N sleeping children; "ok" if all were created, else the errno of the first
// failure. All children are killed before the token is printed.
int fork_bomb(int n) {
  std::vector<pid_t> kids;
  int err = 0;
  for (int i = 0; i < n; ++i) {
    pid_t p = fork();
    if (p == 0) {
      pause();
      _exit(0);
    }
    if (p < 0) {
      err = errno;
      break;
    }
    kids.push_back(p);
  }
  for (pid_t p : kids) kill(p, SIGKILL);
  for (pid_t p : kids) waitpid(p, nullptr, 0);
  return token(err);
}

int open_fds() {
  std::string out;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return token(errno);
  int self = dirfd(d);
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    int fd = atoi(e->d_name);
    if (fd > 2 && fd != self) out += (out.empty() ? "" : ",") + std::to_string(fd);
  }
  closedir(d);
  puts(out.empty() ? "none" : out.c_str());
  return 0;
}

int alloc_mib(long mib) {
  size_t n = static_cast<size_t>(mib) << 20;
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return token(errno);
  memset(p, 1, n);
  return token(0);
}

int write_size(const char* path, long bytes) {
  signal(SIGXFSZ, SIG_IGN);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return token(errno);
  std::vector<char> buf(4096, 'x');
  long left = bytes;
  while (left > 0) {
    ssize_t w = write(fd, buf.data(), static_cast<size_t>(left < 4096 ? left : 4096));
    if (w < 0) return token(errno);
    left -= w;
  }
  return token(0);
}

int open_many(int n) {
  for (int i = 0; i < n; ++i)
    if (open("/dev/null", O_RDONLY) < 0) return token(errno);
  return token(0);
}

// Start a process that leaves the process group and the parent: prints its pid.
int detach_sleeper() {
  int p[2];
  if (pipe(p) != 0) return token(errno);
  pid_t a = fork();
  if (a == 0) {
    setsid();
    pid_t b = fork();
    if (b == 0) {
      int nul = open("/dev/null", O_RDWR);
      dup2(nul, 0);
      dup2(nul, 1);
      dup2(nul, 2);
      pid_t me = getpid();
      (void)!write(p[1], &me, sizeof me);
      close(p[1]);
      for (;;) pause();
    }
    _exit(0);
  }
  close(p[1]);
  pid_t pid = 0;
  (void)!read(p[0], &pid, sizeof pid);
  waitpid(a, nullptr, 0);
  printf("%d\n", pid);
  return 0;
}

// --- subcommands added for tests/integration/sandbox/escape_matrix.py ---

// "ok" when the file is readable and contains NEEDLE, "absent" when it is readable
// but does not, else the errno of the open or read.
int grep_file(const char* path, const char* needle) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return token(errno);
  std::string data;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      int e = errno;
      close(fd);
      return token(e);
    }
    if (n == 0 || data.size() > (1u << 20)) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  if (data.find(needle) == std::string::npos) return puts("absent"), 0;
  return token(0);
}

// A real io_uring_setup (the old "io-uring" passes no params and gets EFAULT when
// io_uring is allowed).
int io_uring_real() {
  unsigned char params[120] = {};  // struct io_uring_params, zeroed
  long fd = syscall(SYS_io_uring_setup, 4, params);
  if (fd < 0) return token(errno);
  close(static_cast<int>(fd));
  return token(0);
}

// Mount a tmpfs on DIR and unmount it again at once.
int mount_at(const char* dir) {
  if (mount("none", dir, "tmpfs", 0, nullptr) != 0) return token(errno);
  umount2(dir, MNT_DETACH);
  return token(0);
}

// Burn N seconds of CPU time, then "ok" (RLIMIT_CPU kills it before).
int cpu_seconds(long n) {
  for (;;) {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    if (t.tv_sec >= n) return token(0);
    for (volatile int i = 0; i < 1000000; ++i) {
    }
  }
}

// setxattr user.lash_probe on P.
int set_xattr(const char* path) {
  return result(syscall(SYS_setxattr, path, "user.lash_probe", "1", 1, 0));
}

// A pid argument: "self" is 0 (the form glibc and the usual tools use), "pid" the
// probe's own number, "ppid" its parent's (lash, for a program lash started).
pid_t pid_arg(const char* a) {
  if (strcmp(a, "self") == 0) return 0;
  if (strcmp(a, "pid") == 0) return getpid();
  // In the session's pid namespace lash is outside: getppid() is 0, which would name
  // the probe itself. A pid no process has stands for the parent there instead.
  if (strcmp(a, "ppid") == 0) return getppid() != 0 ? getppid() : INT_MIN;
  return static_cast<pid_t>(atoi(a));
}

int rlimit_resource(const std::string& name) {
  return name == "as" ? RLIMIT_AS : name == "cpu" ? RLIMIT_CPU : name == "fsize" ? RLIMIT_FSIZE
       : name == "nofile" ? RLIMIT_NOFILE : name == "nproc" ? RLIMIT_NPROC : -1;
}

// prlimit(PID, RES, SOFT, HARD): set another process's (or its own) limit.
int set_prlimit(const char* pid, const std::string& res, const char* soft, const char* hard) {
  int r = rlimit_resource(res);
  if (r < 0) return 2;
  struct rlimit lim {strtoull(soft, nullptr, 10), strtoull(hard, nullptr, 10)};
  return result(prlimit(pid_arg(pid), static_cast<__rlimit_resource>(r), &lim, nullptr));
}

// setpriority(WHICH, WHO, PRIO) with WHICH process, pgrp or user.
int set_priority(const std::string& which, const char* who, int prio) {
  int w = which == "process" ? PRIO_PROCESS : which == "pgrp" ? PRIO_PGRP : which == "user" ? PRIO_USER : -1;
  if (w < 0) return 2;
  id_t id = w == PRIO_PROCESS ? static_cast<id_t>(pid_arg(who)) : static_cast<id_t>(atoi(who));
  return result(setpriority(static_cast<__priority_which>(w), id, prio));
}

// sched_setaffinity(PID, {lowest CPU PID may run on}): a change whenever PID may run
// on more than one CPU.
int set_affinity(const char* who) {
  pid_t pid = pid_arg(who);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(pid, sizeof set, &set) != 0) return token(errno);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
    if (CPU_ISSET(c, &set)) first = c;
  if (first < 0) return token(EINVAL);
  CPU_ZERO(&set);
  CPU_SET(first, &set);
  return result(sched_setaffinity(pid, sizeof set, &set));
}

// sched_setscheduler(PID, SCHED_BATCH) and sched_setparam / sched_setattr with the
// same policy: no privilege needed for one's own processes.
int set_scheduler(const char* who) {
  struct sched_param sp {};
  return result(sched_setscheduler(pid_arg(who), SCHED_BATCH, &sp));
}

int set_sched_param(const char* who) {
  struct sched_param sp {};
  return result(sched_setparam(pid_arg(who), &sp));
}

int set_sched_attr(const char* who) {
  struct {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
  } attr{};
  attr.size = sizeof attr;  // SCHED_ATTR_SIZE_VER0
  attr.policy = SCHED_BATCH;
  // The target's nice value as it is: lowering it would need CAP_SYS_NICE.
  pid_t pid = pid_arg(who);
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(pid));
  if (nice == -1 && errno != 0) return token(errno);
  attr.nice = nice;
  return result(syscall(SYS_sched_setattr, pid, &attr, 0U));
}

// ioprio_set(IOPRIO_WHO_PROCESS, PID, idle class).
int set_ioprio(const char* who) {
  constexpr int kWhoProcess = 1, kClassIdle = 3, kClassShift = 13;
  return result(syscall(SYS_ioprio_set, kWhoProcess, pid_arg(who), kClassIdle << kClassShift));
}

mode_t octal(const char* m) { return static_cast<mode_t>(strtoul(m, nullptr, 8)); }

// Ways to make a file setuid or setgid: chmod, fchmodat2, open(O_CREAT), openat2(O_CREAT),
// mknod of a regular file. umask 0 first, so the mode asked for is the mode made.
int chmod_mode(const char* path, const char* mode) { return result(chmod(path, octal(mode))); }

// fchmodat2 (Linux 6.6) is newer than this system's headers: its number is the same
// on x86-64 and i386 (arch/x86/entry/syscalls).
constexpr long kSysFchmodat2 = 452;

int fchmodat2_mode(const char* path, const char* mode) {
  return result(syscall(kSysFchmodat2, AT_FDCWD, path, octal(mode), 0));
}

int create_mode(const char* path, const char* mode) {
  umask(0);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, octal(mode));
  if (fd < 0) return token(errno);
  close(fd);
  return token(0);
}

int openat2_mode(const char* path, const char* mode) {
  umask(0);
  struct open_how how {};
  how.flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
  how.mode = octal(mode);
  long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd < 0) return token(errno);
  close(static_cast<int>(fd));
  return token(0);
}

int mknod_mode(const char* path, const char* mode) {
  umask(0);
  return result(mknod(path, S_IFREG | octal(mode), 0));
}

// A version 2 security.capability xattr granting CAP_NET_RAW, effective: what setcap
// cap_net_raw+ep writes (linux/capability.h, vfs_cap_data, little-endian).
int set_file_cap(const char* path) {
  uint32_t blob[5] = {0x02000000U | 0x1U /* VFS_CAP_REVISION_2 | EFFECTIVE */, 1U << 13 /* CAP_NET_RAW */, 0, 0, 0};
  return result(syscall(SYS_setxattr, path, "security.capability", blob, sizeof blob, 0));
}

// The same calls through the other x86 ABIs, which a 64-bit process can reach too: the
// i386 one by int 0x80 (arguments in 32-bit registers, so pointers must lie below
// 4 GiB: MAP_32BIT), and x32 by syscall numbers with bit 30 set. A kernel without the
// ABI answers ENOSYS, outside the sandbox as inside. CALL is chmod P MODE,
// create P MODE, prlimit PID (RLIMIT_NOFILE to its current value) or
// setpriority PID PRIO.
long int80(long nr, long a, long b, long c, long d) {
  long ret;
  asm volatile("int $0x80"
               : "=a"(ret)
               : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d)
               : "memory", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15");
  return ret;
}

int other_abi(const std::string& abi, int argc, char** argv) {
  if (argc < 2) return 2;
  std::string call = argv[0];
  void* low = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (low == MAP_FAILED) return token(errno);
  char* buf = static_cast<char*>(low);
  const long x32 = 0x40000000L;
  bool i386 = abi == "i386";
  long r;
  if (call == "chmod" || call == "create") {
    if (argc < 3 || strlen(argv[1]) >= 2048) return 2;
    strcpy(buf, argv[1]);
    long mode = static_cast<long>(octal(argv[2]));
    umask(0);
    if (call == "chmod")
      r = i386 ? int80(15, reinterpret_cast<long>(buf), mode, 0, 0) : syscall(x32 | 90, buf, mode);
    else  // open(P, O_WRONLY | O_CREAT | O_EXCL, MODE): i386 5, x32 2
      r = i386 ? int80(5, reinterpret_cast<long>(buf), O_WRONLY | O_CREAT | O_EXCL, mode, 0)
               : syscall(x32 | 2, buf, O_WRONLY | O_CREAT | O_EXCL, mode);
  } else if (call == "prlimit") {
    pid_t pid = pid_arg(argv[1]);
    struct rlimit cur {};
    if (getrlimit(RLIMIT_NOFILE, &cur) != 0) return token(errno);
    uint64_t* lim = reinterpret_cast<uint64_t*>(buf + 2048);  // struct rlimit64
    lim[0] = cur.rlim_cur;
    lim[1] = cur.rlim_max;
    // prlimit64: i386 340, x32 302
    r = i386 ? int80(340, pid, RLIMIT_NOFILE, reinterpret_cast<long>(lim), 0)
             : syscall(x32 | 302, pid, RLIMIT_NOFILE, lim, nullptr);
  } else if (call == "setpriority" && argc >= 3) {
    // setpriority(PRIO_PROCESS, PID, PRIO): i386 97, x32 141
    r = i386 ? int80(97, PRIO_PROCESS, pid_arg(argv[1]), atoi(argv[2]), 0)
             : syscall(x32 | 141, PRIO_PROCESS, pid_arg(argv[1]), atoi(argv[2]));
  } else {
    return 2;
  }
  if (i386) {
    if (r < 0 && r >= -4095) return token(static_cast<int>(-r));
    if (call == "create") close(static_cast<int>(r));
    return token(0);
  }
  if (r < 0) return token(errno);
  if (call == "create") close(static_cast<int>(r));
  return token(0);
}

// The calls a program makes on itself (pid 0), all of which must work in a session:
// "ok", or the first errno.
int self_tune() {
  struct rlimit lim {};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return token(errno);
  if (prlimit(0, RLIMIT_NOFILE, &lim, nullptr) != 0) return token(errno);
  errno = 0;
  int prio = getpriority(PRIO_PROCESS, 0);
  if (prio == -1 && errno != 0) return token(errno);
  if (setpriority(PRIO_PROCESS, 0, prio < 19 ? prio + 1 : prio) != 0) return token(errno);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || sched_setaffinity(0, sizeof set, &set) != 0)
    return token(errno);
  struct sched_param sp {};
  if (sched_setscheduler(0, SCHED_BATCH, &sp) != 0 || sched_setparam(0, &sp) != 0) return token(errno);
  if (syscall(SYS_ioprio_set, 1, 0, 3 << 13) != 0) return token(errno);
  return token(0);
}

// utimensat: set P's times to the epoch.
int set_utime(const char* path) {
  timespec ts[2] = {{0, 0}, {0, 0}};
  return result(utimensat(AT_FDCWD, path, ts, 0));
}

// Read fd N: "ok" when something could be read from it.
int read_fd(int fd) {
  char c;
  ssize_t n = read(fd, &c, 1);
  if (n < 0) return token(errno);
  if (n == 0) return puts("eof"), 0;
  return token(0);
}

// Copy file P into a memfd and execute it with ARGS: "ok" when execveat succeeded.
int memfd_exec_file(const char* path, char** args) {
  int src = open(path, O_RDONLY | O_CLOEXEC);
  if (src < 0) return token(errno);
  int fd = static_cast<int>(syscall(SYS_memfd_create, "probe", 0));
  if (fd < 0) return token(errno);
  char buf[65536];
  for (;;) {
    ssize_t n = read(src, buf, sizeof buf);
    if (n < 0) return token(errno);
    if (n == 0) break;
    if (write(fd, buf, static_cast<size_t>(n)) != n) return token(errno);
  }
  close(src);
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return token(errno);
  pid_t pid = fork();
  if (pid == 0) {
    int nul = open("/dev/null", O_RDWR);
    dup2(nul, 0);
    dup2(nul, 1);
    dup2(nul, 2);
    syscall(SYS_execveat, fd, "", args, environ, AT_EMPTY_PATH);
    int e = errno;
    (void)!write(p[1], &e, sizeof e);
    _exit(127);
  }
  close(p[1]);
  int e = 0;
  ssize_t n = read(p[0], &e, sizeof e);
  waitpid(pid, nullptr, 0);
  return token(n == static_cast<ssize_t>(sizeof e) ? e : 0);
}

// Listen on 127.0.0.1:PORT for SECONDS: "ok" once a connection was accepted,
// "timeout" when none came, else the errno of socket/bind/listen.
int listen_port(const char* port, int seconds) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return token(errno);
  int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(atoi(port)));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return token(errno);
  if (listen(s, 4) != 0) return token(errno);
  fflush(stdout);
  fd_set set;
  FD_ZERO(&set);
  FD_SET(s, &set);
  timeval tv{seconds, 0};
  int n = select(s + 1, &set, nullptr, nullptr, &tv);
  if (n < 0) return token(errno);
  if (n == 0) return puts("timeout"), 0;
  int c = accept(s, nullptr, nullptr);
  if (c < 0) return token(errno);
  close(c);
  return token(0);
}

// Take fd N of process PID with pidfd_getfd and read a byte from it: "ok", or the
// errno of pidfd_open, pidfd_getfd or read.
int pidfd_steal(pid_t pid, int fd) {
  long pfd = syscall(SYS_pidfd_open, pid, 0);
  if (pfd < 0) return token(errno);
  long got = syscall(SYS_pidfd_getfd, static_cast<int>(pfd), fd, 0);
  if (got < 0) return token(errno);
  char c;
  if (pread(static_cast<int>(got), &c, 1, 0) < 0) return token(errno);
  return token(0);
}

// If fd N is open on a file whose path ends with SUFFIX, append TEXT and a newline to
// it: "ok"; "other" when fd N is something else, or the errno of readlink/write.
int fd_write_if(int fd, const char* suffix, const char* text) {
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n < 0) return token(errno);
  target[n] = 0;
  size_t ls = strlen(suffix);
  if (static_cast<size_t>(n) < ls || strcmp(target + n - ls, suffix) != 0) return puts("other"), 0;
  std::string line = std::string(text) + "\n";
  if (write(fd, line.data(), line.size()) < 0) return token(errno);
  return token(0);
}

int usage() {
  fputs("usage: lash-probe open-read P | open-write P | append P | truncate P | exec P [ARG..] |\n"
        "  run P [ARG..] |\n"
        "  unlink P | rmdir P | mkdir P | rename A B | link A B | symlink T P | chmod P |\n"
        "  connect HOST PORT | bind PORT | unix-connect P | abstract-connect NAME |\n"
        "  kill PID [SIG] | ptrace PID | memfd-exec | tiocsti | userns | mount | io-uring |\n"
        "  env NAME | rlimit as|cpu|fsize|nofile|nproc | fork-bomb N | fds | alloc MIB |\n"
        "  write-size P BYTES | open-files N | detach-sleeper | capsets | cgroup | cgroups | burn-cpu |\n"
        "  grep P NEEDLE | io-uring-setup | mount-at DIR | cpu-seconds N | setxattr P |\n"
        "  utime P | read-fd N | memfd-exec-file P [ARG..] | listen PORT SECONDS |\n"
        "  pidfd-getfd PID FD | fd-write-if N SUFFIX TEXT |\n"
        "  prlimit PID RES SOFT HARD | setpriority process|pgrp|user WHO PRIO | setaffinity PID |\n"
        "  setscheduler PID | setparam PID | setattr PID | ioprio PID | self-tune |\n"
        "  chmod-mode P MODE | fchmodat2-mode P MODE | create-mode P MODE | openat2-mode P MODE |\n"
        "  mknod-mode P MODE | setfcap P | i386|x32 chmod P MODE | i386|x32 create P MODE |\n"
        "  i386|x32 prlimit PID | i386|x32 setpriority PID PRIO\n"
        "  (PID: a number, self (0), pid or ppid)\n",
        stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  auto need = [&](int n) { return argc >= 2 + n; };
  if (cmd == "open-read" && need(1)) return open_read(argv[2]);
  if (cmd == "open-write" && need(1)) return open_write(argv[2], O_TRUNC);
  if (cmd == "append" && need(1)) return open_write(argv[2], O_APPEND);
  if (cmd == "truncate" && need(1)) return result(truncate(argv[2], 0));
  if (cmd == "exec" && need(1)) return exec_prog(argc - 2, argv + 2);
  if (cmd == "run" && need(1)) return run_prog(argv + 2);
  if (cmd == "unlink" && need(1)) return result(unlink(argv[2]));
  if (cmd == "rmdir" && need(1)) return result(rmdir(argv[2]));
  if (cmd == "mkdir" && need(1)) return result(mkdir(argv[2], 0755));
  if (cmd == "rename" && need(2)) return result(rename(argv[2], argv[3]));
  if (cmd == "link" && need(2)) return result(link(argv[2], argv[3]));
  if (cmd == "symlink" && need(2)) return result(symlink(argv[2], argv[3]));
  if (cmd == "chmod" && need(1)) return result(chmod(argv[2], 0600));
  if (cmd == "connect" && need(2)) return connect_tcp(argv[2], argv[3]);
  if (cmd == "bind" && need(1)) return bind_tcp(argv[2]);
  if (cmd == "unix-connect" && need(1)) return unix_connect(argv[2], false);
  if (cmd == "abstract-connect" && need(1)) return unix_connect(argv[2], true);
  if (cmd == "kill" && need(1)) return result(kill(atoi(argv[2]), need(2) ? atoi(argv[3]) : 0));
  if (cmd == "ptrace" && need(1)) return ptrace_pid(atoi(argv[2]));
  // Calls that name another process by pid (issue 18): the pid namespace makes a
  // process outside the session not exist (ESRCH). The read-only forms, which the
  // seccomp filter lets through (it refuses the changing forms for any pid but 0), so
  // that these test the namespace alone.
  if (cmd == "prlimit-get" && need(1)) {
    struct rlimit cur {};
    return result(prlimit(atoi(argv[2]), RLIMIT_NOFILE, nullptr, &cur));
  }
  if (cmd == "getpriority" && need(1)) {
    errno = 0;
    int prio = getpriority(PRIO_PROCESS, atoi(argv[2]));
    return result(prio == -1 && errno != 0 ? -1 : 0);
  }
  if (cmd == "sched-getaffinity" && need(1)) {
    cpu_set_t set;
    return result(sched_getaffinity(atoi(argv[2]), sizeof set, &set));
  }
  if (cmd == "pidfd-open" && need(1)) return result(syscall(SYS_pidfd_open, atoi(argv[2]), 0));
  // SysV IPC objects by key (created outside with ipcmk or the test): ENOENT where the
  // IPC namespace hides them.
  if (cmd == "shm-get" && need(1)) return result(shmget(static_cast<key_t>(strtol(argv[2], nullptr, 0)), 0, 0));
  if (cmd == "sem-get" && need(1)) return result(semget(static_cast<key_t>(strtol(argv[2], nullptr, 0)), 0, 0));
  if (cmd == "msg-get" && need(1)) return result(msgget(static_cast<key_t>(strtol(argv[2], nullptr, 0)), 0));
  if (cmd == "memfd-exec") return memfd_exec();
  if (cmd == "tiocsti") return tiocsti();
  if (cmd == "userns") return userns();
  if (cmd == "mount") return result(mount("none", "/mnt", "tmpfs", 0, nullptr));
  if (cmd == "io-uring") return result(syscall(SYS_io_uring_setup, 1, nullptr));
  if (cmd == "env" && need(1)) {
    const char* v = getenv(argv[2]);
    puts(v ? v : "unset");
    return 0;
  }
  if (cmd == "rlimit" && need(1)) return rlimit_of(argv[2]);
  if (cmd == "fork-bomb" && need(1)) return fork_bomb(atoi(argv[2]));
  if (cmd == "fds") return open_fds();
  if (cmd == "alloc" && need(1)) return alloc_mib(atol(argv[2]));
  if (cmd == "write-size" && need(2)) return write_size(argv[2], atol(argv[3]));
  if (cmd == "open-files" && need(1)) return open_many(atoi(argv[2]));
  if (cmd == "detach-sleeper") return detach_sleeper();
  if (cmd == "capeff") {  // "none", "dropped" (no CAP_SYS_PTRACE but others), or "ptrace"
    FILE* f = fopen("/proc/self/status", "re");
    if (!f) return token(errno);
    char line[256];
    unsigned long long eff = 0;
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "CapEff:", 7) == 0) eff = strtoull(line + 7, nullptr, 16);
    fclose(f);
    puts(eff == 0 ? "none" : (eff & (1ULL << 19)) ? "ptrace" : "dropped");
    return 0;
  }
  if (cmd == "capsets") {  // "eff:N prm:N bnd:N", the masks of /proc/self/status in decimal
    FILE* f = fopen("/proc/self/status", "re");
    if (!f) return token(errno);
    char line[256];
    std::string out;
    while (fgets(line, sizeof line, f)) {
      static const char* const kSets[][2] = {{"CapEff:", "eff"}, {"CapPrm:", "prm"}, {"CapBnd:", "bnd"}};
      for (const auto& set : kSets)
        if (strncmp(line, set[0], 7) == 0)
          out += std::string(out.empty() ? "" : " ") + set[1] + ":" + std::to_string(strtoull(line + 7, nullptr, 16));
    }
    fclose(f);
    puts(out.c_str());
    return 0;
  }
  if (cmd == "cgroup") {
    FILE* f = fopen("/proc/self/cgroup", "re");
    if (!f) return token(errno);
    char line[4096];
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "0::", 3) == 0) fputs(line + 3, stdout);
    fclose(f);
    return 0;
  }
  if (cmd == "cgroups") {  // every hierarchy's path, v1 and v2, comma-separated
    FILE* f = fopen("/proc/self/cgroup", "re");
    if (!f) return token(errno);
    char line[4096];
    std::string out;
    while (fgets(line, sizeof line, f)) {
      const char* path = strchr(line, '/');
      if (path) out += (out.empty() ? "" : ",") + std::string(path, strcspn(path, "\n"));
    }
    fclose(f);
    puts(out.c_str());
    return 0;
  }
  if (cmd == "grep" && need(2)) return grep_file(argv[2], argv[3]);
  if (cmd == "io-uring-setup") return io_uring_real();
  if (cmd == "mount-at" && need(1)) return mount_at(argv[2]);
  if (cmd == "cpu-seconds" && need(1)) return cpu_seconds(atol(argv[2]));
  if (cmd == "setxattr" && need(1)) return set_xattr(argv[2]);
  if (cmd == "utime" && need(1)) return set_utime(argv[2]);
  if (cmd == "read-fd" && need(1)) return read_fd(atoi(argv[2]));
  if (cmd == "memfd-exec-file" && need(2)) return memfd_exec_file(argv[2], argv + 3);
  if (cmd == "listen" && need(2)) return listen_port(argv[2], atoi(argv[3]));
  if (cmd == "pidfd-getfd" && need(2)) return pidfd_steal(atoi(argv[2]), atoi(argv[3]));
  if (cmd == "prlimit" && need(4)) return set_prlimit(argv[2], argv[3], argv[4], argv[5]);
  if (cmd == "setpriority" && need(3)) return set_priority(argv[2], argv[3], atoi(argv[4]));
  if (cmd == "setaffinity" && need(1)) return set_affinity(argv[2]);
  if (cmd == "setscheduler" && need(1)) return set_scheduler(argv[2]);
  if (cmd == "setparam" && need(1)) return set_sched_param(argv[2]);
  if (cmd == "setattr" && need(1)) return set_sched_attr(argv[2]);
  if (cmd == "ioprio" && need(1)) return set_ioprio(argv[2]);
  if (cmd == "self-tune") return self_tune();
  if (cmd == "chmod-mode" && need(2)) return chmod_mode(argv[2], argv[3]);
  if (cmd == "fchmodat2-mode" && need(2)) return fchmodat2_mode(argv[2], argv[3]);
  if (cmd == "create-mode" && need(2)) return create_mode(argv[2], argv[3]);
  if (cmd == "openat2-mode" && need(2)) return openat2_mode(argv[2], argv[3]);
  if (cmd == "mknod-mode" && need(2)) return mknod_mode(argv[2], argv[3]);
  if (cmd == "setfcap" && need(1)) return set_file_cap(argv[2]);
  if ((cmd == "i386" || cmd == "x32") && need(1)) return other_abi(cmd, argc - 2, argv + 2);
  if (cmd == "fd-write-if" && need(3)) return fd_write_if(atoi(argv[2]), argv[3], argv[4]);
  if (cmd == "burn-cpu") {
    unsigned long i = 0;
    for (;;) asm volatile("" : "+r"(i));
  }
  return usage();
}
