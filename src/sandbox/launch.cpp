// Parent side of process creation: pre-build everything the child needs (child.h),
// then start it. launch() uses clone(CLONE_VM|CLONE_VFORK), as posix_spawn does: no
// copy of lash's address space (a fork of lash cost 240 us, a vfork-style clone about
// 75), and clone returns only once the child has exec'd or exited, so the child's
// failure record, written into ChildArgs::result, is read straight from memory: no
// status channel to make or read on success. fork_shell() needs a real fork (the
// child runs lash code): a failure there comes back over a CLOEXEC pipe, whose EOF
// means the sandbox is on (nsjail's runChild/newProc shape, examples.md §2.3).
#include "sandbox/launch.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "base/unique_fd.h"
#include "sandbox/child.h"

namespace lash::sandbox {
namespace {

using detail::StatusRecord;

struct StatusPipe {
  unique_fd parent;  // read end
  unique_fd child;   // write end
};

Result<StatusPipe> make_status_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return sys_error("cannot create the status pipe", "", errno);
  return StatusPipe{unique_fd(fds[0]), unique_fd(fds[1])};
}

// Read one record or EOF. Returns the record's step (none on EOF).
Result<LaunchFailure> read_status(int fd) {
  StatusRecord rec{};
  for (;;) {
    ssize_t n = read(fd, &rec, sizeof rec);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return sys_error("cannot read the status pipe", "", errno);
    if (n == 0) return LaunchFailure{};
    if (n != static_cast<ssize_t>(sizeof rec))
      return sys_error("short record on the status pipe", "", EPROTO);
    return LaunchFailure{static_cast<ChildStep>(rec.step), rec.err, rec.fd_op_index};
  }
}

// Blocks every signal for the lifetime of the object, so no handler runs in the
// child between clone and its reset of dispositions.
class SignalBlock {
 public:
  SignalBlock() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old_);
  }
  ~SignalBlock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

 private:
  sigset_t old_;
};

// Mirror of the child's setpgid, so the group exists whichever side runs first.
void parent_setpgid(pid_t pid, pid_t pgid) {
  if (pgid < 0) return;
  setpgid(pid, pgid == 0 ? pid : pgid);  // EACCES after execve is harmless
}

std::string current_dir() {
  std::string buf(256, '\0');
  while (getcwd(buf.data(), buf.size()) == nullptr) {
    if (errno != ERANGE) return "/";
    buf.resize(buf.size() * 2);
  }
  return buf.c_str();
}

std::vector<char*> c_array(const std::vector<std::string>& v) {
  std::vector<char*> out;
  out.reserve(v.size() + 1);
  for (const auto& s : v) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

const char* step_name(ChildStep step) {
  switch (step) {
    case ChildStep::none: return "none";
    case ChildStep::sandbox: return "sandbox";
    case ChildStep::fd_open: return "fd_open";
    case ChildStep::fd_dup: return "fd_dup";
    case ChildStep::fd_close: return "fd_close";
    case ChildStep::exec: return "exec";
    case ChildStep::signals: return "signals";
    case ChildStep::process_group: return "process_group";
    case ChildStep::cgroup: return "cgroup";
    case ChildStep::namespaces: return "namespaces";
    case ChildStep::rlimits: return "rlimits";
    case ChildStep::no_new_privs: return "no_new_privs";
    case ChildStep::landlock: return "landlock";
    case ChildStep::seccomp: return "seccomp";
    case ChildStep::close_fds: return "close_fds";
    case ChildStep::dumpable: return "dumpable";
    case ChildStep::capabilities: return "capabilities";
  }
  return "unknown";
}

namespace {

// Everything the child reads, built before fork (no allocation after it).
struct ChildPlan {
  std::vector<char*> argv, envp;
  std::vector<detail::ChildFdOp> ops;
  std::string cwd;
  detail::ChildArgs args;
  int handled[64];
  std::size_t n_handled = 0;

  ChildPlan(const Prepared& prepared, const SpawnSpec& spec) : argv(c_array(spec.argv)), envp(c_array(spec.envp)) {
    ops.reserve(spec.fd_ops.size());
    for (const FdOp& op : spec.fd_ops) ops.push_back({op.kind, op.fd, op.path.c_str(), op.flags & ~O_CLOEXEC, op.from});
    args.prepared = &prepared;
    n_handled = handled_signals(handled);
    args.handled_signals = handled;
    args.n_handled_signals = n_handled;
    args.path = spec.path.c_str();
    args.argv = argv.data();
    args.envp = envp.data();
    args.fd_ops = ops.data();
    args.n_fd_ops = ops.size();
    args.default_signals = spec.default_signals.data();
    args.n_default_signals = spec.default_signals.size();
    args.ignore_signals = spec.ignore_signals.data();
    args.n_ignore_signals = spec.ignore_signals.size();
    args.pgid = spec.pgid;
    args.foreground_tty = spec.foreground_tty;
    args.file_size_hard = spec.file_size_hard;
    args.extra_landlock = spec.extra_landlock;
    if (prepared.mntns.valid()) {
      cwd = current_dir();
      args.cwd = cwd.c_str();
    }
  }
  ChildPlan(const ChildPlan&) = delete;
  ChildPlan& operator=(const ChildPlan&) = delete;
};

}  // namespace

LaunchFailure exec_in_place(const Prepared& prepared, const SpawnSpec& spec) {
  ChildPlan plan(prepared, spec);
  plan.args.in_place = true;
  StatusRecord rec = detail::exec_sequence(plan.args);
  return LaunchFailure{static_cast<ChildStep>(rec.step), rec.err, rec.fd_op_index};
}

namespace {

// The stack launch()'s child runs on (CLONE_VM: it cannot use lash's), made once and
// reused: launch() runs on lash's main thread only, and CLONE_VFORK keeps lash
// stopped until the child is done with it. A guard page below it.
constexpr std::size_t kChildStack = 256 * 1024;
constexpr std::size_t kGuard = 4096;

// Mapped on first use; a failure (ENOMEM) is tried again at the next launch rather
// than kept for the rest of the session.
char* child_stack_top() {
  static char* top = nullptr;
  if (top) return top;
  void* m = mmap(nullptr, kChildStack + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  if (mprotect(m, kGuard, PROT_NONE) != 0) {
    int e = errno;
    munmap(m, kChildStack + kGuard);
    errno = e;
    return nullptr;
  }
  top = static_cast<char*>(m) + kGuard + kChildStack;
  return top;
}

}  // namespace

Result<LaunchResult> launch(const Prepared& prepared, const SpawnSpec& spec) {
  ChildPlan plan(prepared, spec);
  StatusRecord result{};
  plan.args.result = &result;
  char* stack = child_stack_top();
  if (!stack) return sys_error("cannot map the child's stack", spec.path, errno);

  pid_t pid;
  {
    SignalBlock block;
    // SIGCHLD: an ordinary child for waitpid. The child runs first and lash resumes
    // here once it has exec'd or exited.
    pid = clone(detail::clone_child, stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &plan.args);
  }
  if (pid < 0) return sys_error("cannot start a process", spec.path, errno);
#if defined(__SANITIZE_ADDRESS__)
  // Frames the child left on the stack (execve does not return through them).
  __asan_unpoison_memory_region(stack - kChildStack, kChildStack);
#endif
  parent_setpgid(pid, spec.pgid);
  return LaunchResult{pid, LaunchFailure{static_cast<ChildStep>(result.step), result.err, result.fd_op_index}};
}

namespace {
// Bit sig-1 set: lash gave SIG a handler. Atomic: a handler may change dispositions
// (cpu_limit_reached) while the main thread reads the set.
std::atomic<uint64_t> g_handled{0};
}  // namespace

void note_signal_handler(int sig, bool has_handler) {
  if (sig < 1 || sig > 64) return;
  uint64_t bit = uint64_t{1} << (sig - 1);
  if (has_handler)
    g_handled.fetch_or(bit);
  else
    g_handled.fetch_and(~bit);
}

std::size_t handled_signals(int* out) {
  uint64_t set = g_handled.load();
  std::size_t n = 0;
  for (int sig = 1; sig <= 64; ++sig)
    if (set & (uint64_t{1} << (sig - 1))) out[n++] = sig;
  return n;
}

pid_t fork_helper() { return fork(); }

void reserve_file(int fd) { detail::reserve_file(fd); }

bool running_sandboxed() { return detail::in_sandbox(); }

int give_terminal(int tty, pid_t pgid) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTTOU);
  if (sigprocmask(SIG_BLOCK, &block, &old) != 0) return -1;
  int r = tcsetpgrp(tty, pgid);
  int err = errno;
  sigprocmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return r;
}

Result<pid_t> fork_shell(const Prepared& prepared, pid_t pgid, int foreground_tty) {
  auto pair = make_status_pipe();
  if (!pair) return pair.error();
  pid_t pid = fork();
  if (pid < 0) return sys_error("cannot fork", "", errno);
  if (pid == 0) {
    pair->parent.reset();
    // The watchdog must see EOF when lash goes, not when the last subshell does. The
    // number is pointed at /dev/null rather than closed, so that Prepared's later
    // close cannot hit an unrelated fd that reused it.
    if (!detail::in_sandbox() && prepared.watchdog.valid()) {
      int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (nul >= 0) {
        dup3(nul, prepared.watchdog.get(), O_CLOEXEC);
        close(nul);
      }
    }
    if (pgid >= 0 && setpgid(0, pgid) != 0) {
      detail::send_status(pair->child.get(), ChildStep::process_group, errno, -1);
      _exit(126);
    }
    if (pgid >= 0 && foreground_tty >= 0) (void)give_terminal(foreground_tty, getpgrp());
    StatusRecord rec{};
    std::string cwd = prepared.mntns.valid() ? current_dir() : std::string();
    if (detail::apply_sandbox(prepared, cwd.empty() ? nullptr : cwd.c_str(), &rec, /*remember=*/true) != 0) {
      detail::send_status(pair->child.get(), static_cast<ChildStep>(rec.step), rec.err, -1);
      _exit(126);
    }
    pair->child.reset();  // release the parent: the sandbox is on
    return pid_t{0};
  }
  parent_setpgid(pid, pgid);
  if (pgid >= 0 && foreground_tty >= 0) (void)give_terminal(foreground_tty, pgid == 0 ? pid : pgid);
  pair->child.reset();
  auto status = read_status(pair->parent.get());
  if (status && status->step == ChildStep::none) return pid;
  int err = status ? status->err : status.error().err;
  const char* step = status ? step_name(status->step) : "status";
  if (!status) kill(pid, SIGKILL);
  int ws;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  return Error{std::string("the subshell's sandbox step failed: ") + step, "", err, {}};
}

}  // namespace lash::sandbox
