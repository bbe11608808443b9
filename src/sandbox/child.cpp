// The child side of every process lash starts. This is the ONLY file in lash that
// calls execve.
//
// Runs between fork and execve, so it must be async-signal-safe: lash has threads,
// and a lock held by another thread at fork time stays held forever in the child.
// Therefore: no allocation, no stdio, no C++ library calls that may allocate, no
// locks. The parent pre-built every string and array (child.h); this file only reads
// them and makes system calls. Every failure is reported over the status socket and
// ends the child: a step that fails never turns into a run without that step.
//
// The order of the sequence (examples.md §3.6, enforcement.md "For every fork"):
//   1. signal dispositions back to what a new program expects, mask cleared
//   2. process group (job control)
//   3. sandbox steps from Prepared (cgroup, namespaces, rlimits, NO_NEW_PRIVS,
//      Landlock, seccomp last) -- none yet: an empty Prepared applies nothing
//   4. redirections (fd_ops), opened here so that the sandbox checks them
//   5. execve with the envp the parent built from the policy
#include "sandbox/child.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace lash::sandbox::detail {
namespace {

// Handlers do not survive execve anyway, but a handler must not run in the child
// before execve either (it would run lash code post-fork), so the parent blocks all
// signals around fork and the child resets before unblocking. Ignored signals are
// inherited across execve; lash's own ignores are undone via default_signals, and
// `&` jobs get their SIG_IGN via ignore_signals.
bool step_reset_signals(const ChildArgs& a) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    struct sigaction cur {};
    if (sigaction(sig, nullptr, &cur) != 0) continue;  // reserved by libc: EINVAL
    bool has_handler = (cur.sa_flags & SA_SIGINFO) != 0 ||
                       (cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN);
    if (has_handler && sigaction(sig, &dfl, nullptr) != 0) return false;
  }
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
bool step_process_group(const ChildArgs& a) {
  if (a.pgid < 0) return true;
  return setpgid(0, a.pgid) == 0;
}

// One redirection step. Returns the failing ChildStep, or ChildStep::none.
ChildStep apply_fd_op(const ChildArgs& a, const ChildFdOp& op) {
  switch (op.kind) {
    case FdOp::Kind::open: {
      int fd = open(op.path, op.flags, 0666);
      if (fd < 0) return ChildStep::fd_open;
      if (fd == op.fd) return ChildStep::none;  // opened without O_CLOEXEC already
      int r = dup2(fd, op.fd);
      int saved = errno;
      close(fd);
      errno = saved;
      return r < 0 ? ChildStep::fd_open : ChildStep::none;
    }
    case FdOp::Kind::dup: {
      // The status socket is invisible to user redirections: a copy of it would
      // keep the parent waiting for EOF until the program exits.
      if (op.from == a.status_fd) {
        errno = EBADF;
        return ChildStep::fd_dup;
      }
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
      if (op.fd == a.status_fd) return ChildStep::none;  // not the user's to close
      close(op.fd);  // closing an already-closed fd is not an error for N>&-
      return ChildStep::none;
  }
  errno = EINVAL;
  return ChildStep::fd_open;
}

[[noreturn]] void fail(const ChildArgs& a, ChildStep step, int err, int index) {
  send_status(a.status_fd, step, err, index);
  _exit(step == ChildStep::exec && err == ENOENT ? 127 : 126);
}

}  // namespace

void send_status(int fd, ChildStep step, int err, int index) {
  StatusRecord rec{static_cast<int>(step), err, index};
  for (;;) {
    ssize_t n = send(fd, &rec, sizeof rec, MSG_NOSIGNAL);
    if (n >= 0 || errno != EINTR) return;
  }
}

int apply_sandbox(const Prepared& p, StatusRecord* rec) {
  // Issue 4 adds here, in this order: join cgroup, namespaces, rlimits,
  // NO_NEW_PRIVS, Landlock, seccomp (last).
  (void)p;
  (void)rec;
  return 0;
}

void run_child(const ChildArgs& a) {
  if (!step_reset_signals(a)) fail(a, ChildStep::signals, errno, -1);
  if (!step_unblock_signals()) fail(a, ChildStep::signals, errno, -1);
  if (!step_process_group(a)) fail(a, ChildStep::process_group, errno, -1);

  StatusRecord rec{};
  if (apply_sandbox(*a.prepared, &rec) != 0)
    fail(a, static_cast<ChildStep>(rec.step), rec.err, -1);

  for (std::size_t i = 0; i < a.n_fd_ops; ++i) {
    ChildStep st = apply_fd_op(a, a.fd_ops[i]);
    if (st != ChildStep::none) fail(a, st, errno, static_cast<int>(i));
  }

  execve(a.path, a.argv, a.envp);
  fail(a, ChildStep::exec, errno, -1);
}

}  // namespace lash::sandbox::detail
