#include "plugin/host.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "policy/paths.h"
#include "sandbox/caps.h"
#include "sandbox/landlock.h"
#include "sandbox/launch.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

namespace lash::plugin {

namespace {

int64_t now_ms() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::string expand_access_path(const std::string& p, const StartContext& ctx) {
  if (p.rfind("$LASH_HOME", 0) == 0) return policy::paths::normalize(ctx.lash_home + p.substr(10));
  return policy::paths::expand(p, ctx.cwd, ctx.home);
}

const sandbox::Capabilities& caps() {
  static const sandbox::Capabilities c = sandbox::probe_capabilities();
  return c;
}

// The Landlock layer of a manifest: its own directory (read, run), read_only (read,
// run: interpreters and libraries), read_write; no TCP unless allow_hosts names hosts
// (which hosts is the session relay's business, as for every program).
Result<unique_fd> manifest_ruleset(const Manifest& m, const StartContext& ctx) {
  sandbox::SandboxPlan plan;
  plan.restrict_fs = true;
  using namespace sandbox::rights;
  for (auto& [path, what] : Host::effective_grants(m, ctx)) {
    unsigned r = what == "read_write" || what == "device" ? (read | write) : (read | execute);
    plan.paths.push_back({path, r, false, what, {}, 0, 0});
  }
  plan.restrict_net = m.access.allow_hosts.empty();
  if (caps().landlock_abi == 0)
    return Error{"cannot narrow the plugin to its manifest: Landlock is unavailable (" + caps().landlock_error + ")",
                 {}, 0, {}};
  auto rs = sandbox::build_landlock(plan, caps());
  if (!rs) return rs.error();
  return std::move(rs->fd);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> Host::effective_grants(const Manifest& m, const StartContext& ctx) {
  std::vector<std::pair<std::string, std::string>> out;
  // Its directory as the kernel will grant it: a linked directory is shown (and
  // granted) where it really is.
  char real[PATH_MAX];
  out.push_back({::realpath(m.dir.c_str(), real) ? std::string(real) : m.dir, "plugin"});
  out.push_back({"/dev/null", "device"});  // as every program of a session has it
  for (auto& p : m.access.read_only) out.push_back({expand_access_path(p, ctx), "read_only"});
  for (auto& p : m.access.read_write) out.push_back({expand_access_path(p, ctx), "read_write"});
  return out;
}

Host::~Host() { stop_all(); }

void Host::stop(Running& r) {
  if (r.pidfd.valid()) {
    ::syscall(SYS_pidfd_send_signal, r.pidfd.get(), SIGKILL, nullptr, 0);
    // Through the pidfd: the shell may have reaped it already (waitpid(-1) while it
    // waited for a job), and its pid may then name another child.
    siginfo_t si{};
    while (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(r.pidfd.get()), &si, WEXITED) != 0 &&
           errno == EINTR) {
    }
  }
  r.sock.reset();
  r.pidfd.reset();
  r.pid = -1;
  r.buf.clear();
}

void Host::stop_all() {
  if (owner_ != ::getpid()) return;  // a subshell's copy: the plugins are its parent's
  for (auto& [name, r] : running_) stop(r);
  running_.clear();
}

Result<void> Host::start(const Found& plugin, const StartContext& ctx, Running& r) {
  const Manifest& m = plugin.manifest;
  if (::access(m.executable.c_str(), X_OK) != 0)
    return Error{"cannot run " + m.executable + ": " + std::strerror(errno), {}, 0, {}};
  auto rs = manifest_ruleset(m, ctx);
  if (!rs) return rs.error();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return sys_error("socketpair", {}, errno);
  unique_fd ours(sv[0]), theirs(sv[1]);
  sandbox::SpawnSpec spec;
  spec.path = m.executable;
  spec.argv = {m.executable};
  spec.envp = ctx.envp;
  spec.fd_ops = {{sandbox::FdOp::Kind::dup, 0, {}, 0, theirs.get()},
                 {sandbox::FdOp::Kind::dup, 1, {}, 0, theirs.get()}};
  spec.pgid = 0;  // its own group: the terminal's ^C is for the shell's job, not for it
  spec.extra_landlock = rs->get();
  static const sandbox::Prepared none{};
  auto launched = sandbox::launch(ctx.prepared ? *ctx.prepared : none, spec);
  if (!launched) return launched.error();
  pid_t pid = launched->pid;
  unique_fd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  if (launched->failure.step != sandbox::ChildStep::none) {
    int ws;
    while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    return Error{std::string("cannot start (") + sandbox::step_name(launched->failure.step) +
                     "): " + std::strerror(launched->failure.err),
                 {}, 0, {}};
  }
  if (!pidfd.valid()) {
    ::kill(pid, SIGKILL);
    int ws;
    while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    return sys_error("pidfd_open", {}, errno);
  }
  int fl = ::fcntl(ours.get(), F_GETFL);
  if (fl < 0 || ::fcntl(ours.get(), F_SETFL, fl | O_NONBLOCK) != 0) return sys_error("fcntl", {}, errno);
  r.pid = pid;
  r.pidfd = std::move(pidfd);
  r.sock = std::move(ours);
  r.buf.clear();
  r.next_id = 1;
  return {};
}

CallOutcome Host::call(const Found& plugin, const StartContext& ctx, const std::string& method,
                       const nlohmann::json& params, int timeout_ms) {
  if (owner_ != ::getpid()) {
    // Inherited from the parent shell by a fork: those sockets and processes are the
    // parent's to use. Forget them (without killing) and start afresh.
    for (auto& [n, r] : running_) {
      r.sock.reset();
      r.pidfd.reset();
    }
    running_.clear();
    owner_ = ::getpid();
  }
  CallOutcome out;
  const std::string& name = plugin.manifest.name;
  Running& r = running_[name];
  if (!r.sock.valid()) {
    int& starts = starts_[name];
    if (starts > kMaxRestarts) {
      out.error = "failed too often; not restarted again in this session";
      return out;
    }
    ++starts;
    auto st = start(plugin, ctx, r);
    if (!st) {
      out.error = st.error().message();
      return out;
    }
  }
  auto fail = [&](std::string why) {
    stop(r);
    out.error = std::move(why);
    return out;
  };
  int64_t deadline = now_ms() + timeout_ms;
  int64_t id = r.next_id++;
  std::string req = make_request(id, method, params);
  size_t sent = 0;
  while (sent < req.size()) {
    ssize_t n = ::send(r.sock.get(), req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return fail("the plugin exited (it was not reading its requests)");
    int64_t left = deadline - now_ms();
    if (left <= 0) return fail("timed out after " + std::to_string(timeout_ms / 1000) + " s (not reading its requests)");
    struct pollfd pfd{r.sock.get(), POLLOUT, 0};
    ::poll(&pfd, 1, int(left));
  }
  std::string line;
  char chunk[65536];
  for (;;) {
    while (r.buf.next_line(line)) {
      if (line.empty()) continue;  // blank lines between messages are tolerated
      auto reply = parse_reply(line, id);
      if (!reply) return fail(reply.error().what);
      out.ok = true;
      out.reply = std::move(*reply);
      return out;
    }
    if (r.buf.oversized()) return fail("oversized reply (over 1 MiB)");
    int64_t left = deadline - now_ms();
    if (left <= 0) return fail("timed out after " + std::to_string(timeout_ms / 1000) + " s");
    struct pollfd pfd{r.sock.get(), POLLIN, 0};
    int pr = ::poll(&pfd, 1, int(left));
    if (pr < 0 && errno != EINTR) return fail(std::string("poll: ") + std::strerror(errno));
    if (pr <= 0) continue;
    ssize_t n = ::recv(r.sock.get(), chunk, sizeof chunk, 0);
    // ECONNRESET: it exited with our request unread.
    if (n == 0 || (n < 0 && errno == ECONNRESET)) return fail("the plugin exited without replying (crashed?)");
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return fail(std::string("read: ") + std::strerror(errno));
    }
    if (!r.buf.feed(std::string_view(chunk, size_t(n)))) return fail("oversized reply (over 1 MiB)");
  }
}

Host& session_host() {
  static Host h;
  return h;
}

}  // namespace lash::plugin
