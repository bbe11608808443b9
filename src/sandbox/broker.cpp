// Wire format (SOCK_SEQPACKET, one datagram each way):
//   request  = Request header followed by the path bytes (no NUL), at most PATH_MAX
//   reply    = int32 errno (0 on success) with the fd in SCM_RIGHTS when 0
// Why this is enough: the helper runs under the same Landlock domain, namespaces
// and seccomp filter as every child, so an open it makes is exactly an open a child
// could make; it re-checks the framing and flags itself and refuses anything else,
// and it never follows a request to do more than one open.
#include "sandbox/broker.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sandbox/child.h"
#include "sandbox/fd_passing.h"
#include "sandbox/launch.h"
#include "sandbox/proc_stat.h"

namespace lash::sandbox {
namespace {

struct Request {
  uint32_t op;  // 1 = open
  int32_t flags;
  uint32_t mode;
};
constexpr uint32_t kOpOpen = 1;
constexpr size_t kMaxMsg = sizeof(Request) + PATH_MAX;

constexpr int kAllowedFlags = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_EXCL | O_DIRECTORY | O_NOFOLLOW |
                              O_NOCTTY | O_NONBLOCK | O_CLOEXEC;

bool send_reply(int sock, int err, int fd) {
  int32_t e = err;
  return send_with_fd(sock, &e, sizeof e, fd) == static_cast<ssize_t>(sizeof e);
}

// /proc/self/fd/2, /dev/stderr, /proc/self/cwd and the like would name the broker's
// own descriptors and directory, not the shell's: refused (ELOOP), the shell serves
// the ones that name its descriptors itself (exec/fd_alias.h). Kernels before 5.6 have
// no openat2 and no Landlock either; there the plain open stays.
int open_no_magic_links(const char* path, int flags, mode_t mode) {
  struct open_how how {};
  how.flags = static_cast<uint64_t>(flags);
  how.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;  // else EINVAL
  how.resolve = RESOLVE_NO_MAGICLINKS;
  long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd < 0 && errno == ENOSYS) return ::open(path, flags, mode);
  return static_cast<int>(fd);
}

// One request: validate everything, then exactly one open.
void serve_one(int sock, const char* buf, size_t len) {
  Request rq;
  if (len < sizeof rq || len - sizeof rq >= PATH_MAX) return (void)send_reply(sock, EINVAL, -1);
  std::memcpy(&rq, buf, sizeof rq);
  char path[PATH_MAX];
  size_t plen = len - sizeof rq;
  std::memcpy(path, buf + sizeof rq, plen);
  path[plen] = '\0';
  if (rq.op != kOpOpen || plen == 0 || path[0] != '/' || std::memchr(path, '\0', plen) != nullptr ||
      !broker_flags_ok(rq.flags))
    return (void)send_reply(sock, EINVAL, -1);
  // Never a setuid, setgid or sticky mode: the shell asks for 0666, and the broker
  // keeps openat2, whose mode the seccomp filter cannot see (seccomp_filter.h).
  int fd = open_no_magic_links(path, rq.flags | O_CLOEXEC, static_cast<mode_t>(rq.mode & 0777));
  if (fd < 0) return (void)send_reply(sock, errno, -1);
  // The broker is a copy of lash: its own memory and environment files are lash's.
  if (detail::refused_for_program(fd)) {
    close(fd);
    return (void)send_reply(sock, EACCES, -1);
  }
  send_reply(sock, 0, fd);
  close(fd);
}

[[noreturn]] void broker_main(int sock, const Prepared& prepared) {
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  prctl(PR_SET_NAME, "lash-broker", 0, 0, 0);
  for (int sig : {SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP, SIGPIPE}) signal(sig, SIG_IGN);
  // The sandbox first: it needs Prepared's fds (cgroup.procs, ruleset).
  detail::StatusRecord rec{};
  if (detail::apply_broker_sandbox(prepared, &rec) != 0) _exit(2);  // never serve unsandboxed
  // Then keep nothing of lash but the socket (as fd 3).
  int nul = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  int s = fcntl(sock, F_DUPFD_CLOEXEC, 3);
  for (int fd = 0; fd < 3; ++fd) dup2(nul, fd);
  if (s < 0 || dup2(s, 3) < 0) _exit(1);
  syscall(SYS_close_range, 4U, ~0U, 0U);
  char buf[kMaxMsg];
  for (;;) {
    ssize_t n = recv(3, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(0);  // lash closed the socket
    serve_one(3, buf, static_cast<size_t>(n));
  }
}

std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  std::string buf(PATH_MAX, '\0');
  if (!getcwd(buf.data(), buf.size())) return "";
  return std::string(buf.c_str()) + "/" + path;
}

}  // namespace

bool broker_flags_ok(int flags) {
  return (flags & ~kAllowedFlags) == 0 && (flags & O_ACCMODE) != O_ACCMODE;
}

Broker& Broker::operator=(Broker&& o) noexcept {
  if (this != &o) {
    stop();
    sock_ = std::move(o.sock_);
    pid_ = o.pid_;
    o.pid_ = -1;
  }
  return *this;
}

Broker::~Broker() { stop(); }

Result<Broker> Broker::start(const Prepared& prepared) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return sys_error("cannot create the broker socket", "", errno);
  unique_fd mine(sv[0]), theirs(sv[1]);
  pid_t pid = fork_helper();
  if (pid < 0) return sys_error("cannot start the fd broker", "", errno);
  if (pid == 0) {
    mine.reset();
    broker_main(theirs.get(), prepared);
  }
  theirs.reset();  // or a helper that died would never give us EOF
  Broker b;
  b.sock_ = std::move(mine);
  keep_private(b.sock_);
  b.pid_ = pid;
  // Round trip once, so a helper that could not sandbox itself is seen now.
  auto probe = b.open("/", O_RDONLY | O_DIRECTORY);
  if (!probe && probe.error().err == EPIPE) {
    b.stop();
    return Error{"the fd broker could not put itself under the sandbox", "", EPERM, {}};
  }
  return b;
}

Result<unique_fd> Broker::open(const std::string& path, int flags, mode_t mode, const std::function<bool()>& give_up) {
  std::string abs = absolute(path);
  if (abs.empty() || abs.size() >= PATH_MAX) return sys_error("cannot open", path, ENAMETOOLONG);
  if (!broker_flags_ok(flags)) return sys_error("cannot open", path, EINVAL);
  std::lock_guard<std::mutex> lock(mu_);
  if (!sock_) return sys_error("cannot open (no fd broker)", path, EPIPE);
  std::string msg(sizeof(Request), '\0');
  Request rq{kOpOpen, flags & ~O_CLOEXEC, static_cast<uint32_t>(mode)};
  std::memcpy(msg.data(), &rq, sizeof rq);
  msg += abs;
  ssize_t n;
  do n = send(sock_.get(), msg.data(), msg.size(), MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(msg.size())) return sys_error("cannot reach the fd broker", path, EPIPE);

  int32_t err = EPIPE;
  int got = -1;
  for (;;) {
    n = recv_with_fd(sock_.get(), &err, sizeof err, &got, 0);
    if (n >= 0 || errno != EINTR) break;
    if (give_up && give_up()) {
      stop();  // its answer would come to the next request
      return sys_error("cannot open", path, EINTR);
    }
  }
  unique_fd fd(got);
  if (n != static_cast<ssize_t>(sizeof err)) return sys_error("the fd broker did not answer", path, EPIPE);
  if (err != 0) return sys_error("cannot open", path, err);
  if (!fd) return sys_error("the fd broker sent no fd", path, EPROTO);
  return fd;
}

void Broker::stop() {
  sock_.reset();
  // Only the process that started the broker reaps (and kills) it: a copy in a forked
  // subshell (which may prepare again at a `profile switch`) just lets go of it.
  if (pid_ > 0 && parent_pid_of(pid_) != getpid()) {
    pid_ = -1;
    return;
  }
  if (pid_ > 0) {
    // Forks of lash made after the broker started (a subshell still running at
    // exit) hold copies of the socket, so EOF alone may never come: it is our own
    // helper, nothing of the user's is lost.
    kill(pid_, SIGKILL);
    int ws;
    while (waitpid(pid_, &ws, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

}  // namespace lash::sandbox
