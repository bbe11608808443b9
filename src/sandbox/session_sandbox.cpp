#include "sandbox/session_sandbox.h"

#include "sandbox/relay_confine.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <climits>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "sandbox/ns.h"
#include "sandbox/prepare.h"
#include "sandbox/watchdog.h"

namespace lash::sandbox {

SessionSandbox::SessionSandbox() : owner_(getpid()) {}

SessionSandbox::~SessionSandbox() = default;

const Capabilities& SessionSandbox::capabilities() {
  if (!caps_) caps_ = probe_capabilities();
  return *caps_;
}

void SessionSandbox::set_capabilities(Capabilities caps) { caps_ = std::move(caps); }

Result<std::string> SessionSandbox::make_tmpdir() {
  auto t = make_session_tmpdir();
  if (t) tmpdir_ = t.value();
  return t;
}

Result<void> SessionSandbox::begin(const SandboxPlan& early) {
  sandbox::kill_all(begun_);  // an earlier begin() that no prepare() consumed
  begun_ = Prepared{};
  return begin_prepare(begun_, early, capabilities());
}

Result<void> SessionSandbox::prepare(const SandboxPlan& plan) {
  auto p = sandbox::prepare(plan, capabilities(), std::move(begun_));
  begun_ = Prepared{};
  if (!p) return p.error();
  for (auto& n : p->notes) notes_.push_back(n);
  for (unique_fd* fd : {&p->landlock, &p->userns, &p->mntns, &p->ipcns, &p->netns, &p->watchdog, &p->join_pending, &p->signal_relay})
    keep_private(*fd);
  broker_.stop();  // it served the previous plan; the next open starts one under this plan
  retired_.push_back(std::move(current_));
  current_ = std::move(p.value());
  return {};
}

Result<void> SessionSandbox::start_relay(const std::function<void(std::vector<RelayListener>&)>& body,
                                         std::vector<int> keep) {
  if (current_.relay_listeners.empty()) return {};
  pid_t pid = fork_helper();
  if (pid < 0) return sys_error("cannot start the session's network relay", "", errno);
  if (pid == 0) {
    // The relay must not hold what lash holds for the session's programs.
    current_.netns.reset();
    for (const RelayListener& l : current_.relay_listeners) keep.push_back(l.fd.get());
    keep.push_back(INT_MAX);
    std::sort(keep.begin(), keep.end());
    unsigned from = 3;
    for (int k : keep) {
      if (k < 3) continue;
      if (unsigned(k) > from) (void)syscall(SYS_close_range, from, unsigned(k) - 1, 0U);
      from = unsigned(k) + 1;
    }
    // Two descriptors per relayed connection: as many as this user may have.
    struct rlimit nofile {};
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
      nofile.rlim_cur = nofile.rlim_max;
      (void)setrlimit(RLIMIT_NOFILE, &nofile);
    }
    // Named, so that ps and the tests can tell it from lash itself.
    (void)prctl(PR_SET_NAME, "lash-relay", 0, 0, 0);
    if (auto r = confine_relay(capabilities()); !r) _exit(120);
    body(current_.relay_listeners);
    _exit(121);
  }
  current_.relay_pid = pid;
  current_.relay_listeners.clear();  // the relay has them now
  return {};
}

Result<unique_fd> SessionSandbox::open_for_user(const std::string& path, int flags, mode_t mode,
                                                const std::function<bool()>& give_up) {
  if (!broker_flags_ok(flags)) return sys_error("cannot open", path, EINVAL);
  bool device = std::find(current_.direct_devices.begin(), current_.direct_devices.end(), path) !=
                current_.direct_devices.end();
  if (current_.active() && !running_sandboxed() && !device) {
    // Started by the first open, not by prepare(): a session whose shell never opens
    // a file itself (most -c strings and scripts) does not pay for the fork. The
    // broker closes every fd it inherits, so a late start hands it nothing more.
    if (!broker_.running()) {
      auto b = Broker::start(current_);
      if (!b) return b.error();  // fail closed: never an open outside the sandbox
      broker_ = std::move(b.value());
    }
    return broker_.open(path, flags, mode, give_up);
  }
  int fd;
  do fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  while (fd < 0 && errno == EINTR && !(give_up && give_up()));
  if (fd < 0) return sys_error("cannot open", path, errno);
  return unique_fd(fd);
}

int SessionSandbox::relay_signal(pid_t pid, int sig) const {
  return sandbox::relay_signal(current_.signal_relay.get(), pid, sig);
}

Result<LaunchResult> SessionSandbox::launch(const SpawnSpec& spec) const {
  return sandbox::launch(current_, spec);
}

Result<pid_t> SessionSandbox::fork_shell(pid_t pgid) const {
  return sandbox::fork_shell(current_, pgid);
}

std::vector<std::string> SessionSandbox::take_notes() {
  std::vector<std::string> out;
  out.swap(notes_);
  return out;
}

std::vector<std::string> SessionSandbox::kill_all() {
  if (getpid() != owner_) return {};
  std::vector<std::string> moved = sandbox::kill_all(begun_);
  for (auto& m : sandbox::kill_all(current_)) moved.push_back(std::move(m));
  for (Prepared& p : retired_)
    for (auto& m : sandbox::kill_all(p)) moved.push_back(std::move(m));
  retired_.clear();
  end_session_processes();  // setsid, nohup, double forks: all that is left in the session
  broker_.stop();  // after the kill: nothing may still ask it
  if (!tmpdir_.empty()) remove_tree(tmpdir_);
  tmpdir_.clear();
  return moved;
}

}  // namespace lash::sandbox
