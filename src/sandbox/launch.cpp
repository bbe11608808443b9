// Parent side of process creation: pre-build everything the child needs (child.h),
// fork, and read the status socket until EOF. EOF means the child's end was closed
// by execve (it is O_CLOEXEC); a record means a child-side step failed and the child
// has exited (nsjail's runChild/newProc shape, examples.md §2.3).
#include "sandbox/launch.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/unique_fd.h"
#include "sandbox/child.h"

namespace lash::sandbox {
namespace {

using detail::StatusRecord;

struct StatusPair {
  unique_fd parent;
  unique_fd child;
};

// The child end must not be any fd number a redirection writes to, or an fd_op would
// clobber it: move it above the highest target.
Result<StatusPair> make_status_pair(int highest_target) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return sys_error("cannot create the status socket", "", errno);
  StatusPair p{unique_fd(sv[0]), unique_fd(sv[1])};
  if (p.child.get() <= highest_target) {
    int moved = fcntl(p.child.get(), F_DUPFD_CLOEXEC, highest_target + 1);
    if (moved < 0) return sys_error("cannot move the status socket", "", errno);
    p.child.reset(moved);
  }
  return p;
}

// Read one record or EOF. Returns the record's step (none on EOF).
Result<LaunchFailure> read_status(int fd) {
  StatusRecord rec{};
  for (;;) {
    ssize_t n = read(fd, &rec, sizeof rec);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return sys_error("cannot read the status socket", "", errno);
    if (n == 0) return LaunchFailure{};
    if (n != static_cast<ssize_t>(sizeof rec))
      return sys_error("short record on the status socket", "", EPROTO);
    return LaunchFailure{static_cast<ChildStep>(rec.step), rec.err, rec.fd_op_index};
  }
}

// Blocks every signal for the lifetime of the object, so no handler runs in the
// child between fork and its reset of dispositions.
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
  int highest_target = 2;

  ChildPlan(const Prepared& prepared, const SpawnSpec& spec) : argv(c_array(spec.argv)), envp(c_array(spec.envp)) {
    ops.reserve(spec.fd_ops.size());
    for (const FdOp& op : spec.fd_ops) {
      ops.push_back({op.kind, op.fd, op.path.c_str(), op.flags & ~O_CLOEXEC, op.from});
      highest_target = std::max(highest_target, op.fd);
    }
    args.prepared = &prepared;
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
    args.file_size_hard = spec.file_size_hard;
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
  plan.args.status_fd = -1;
  plan.args.in_place = true;
  StatusRecord rec = detail::exec_sequence(plan.args);
  return LaunchFailure{static_cast<ChildStep>(rec.step), rec.err, rec.fd_op_index};
}

Result<LaunchResult> launch(const Prepared& prepared, const SpawnSpec& spec) {
  ChildPlan plan(prepared, spec);
  auto pair = make_status_pair(plan.highest_target);
  if (!pair) return pair.error();
  detail::ChildArgs& args = plan.args;
  args.status_fd = pair->child.get();

  pid_t pid;
  {
    SignalBlock block;
    pid = fork();
    if (pid == 0) {
      close(pair->parent.get());  // no destructors run in the child: it execs or _exits
      detail::run_child(args);
    }
  }
  if (pid < 0) return sys_error("cannot fork", spec.path, errno);
  parent_setpgid(pid, spec.pgid);
  pair->child.reset();  // only the child holds it now: its execve gives us EOF

  auto status = read_status(pair->parent.get());
  if (!status) {
    // Cannot tell whether the child exec'd: do not let it run unobserved.
    kill(pid, SIGKILL);
    return status.error();
  }
  return LaunchResult{pid, status.value()};
}

pid_t fork_helper() { return fork(); }

bool running_sandboxed() { return detail::in_sandbox(); }

Result<pid_t> fork_shell(const Prepared& prepared, pid_t pgid) {
  auto pair = make_status_pair(2);
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
    StatusRecord rec{};
    std::string cwd = prepared.mntns.valid() ? current_dir() : std::string();
    if (detail::apply_sandbox(prepared, cwd.empty() ? nullptr : cwd.c_str(), &rec) != 0) {
      detail::send_status(pair->child.get(), static_cast<ChildStep>(rec.step), rec.err, -1);
      _exit(126);
    }
    pair->child.reset();  // release the parent: the sandbox is on
    return pid_t{0};
  }
  parent_setpgid(pid, pgid);
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
