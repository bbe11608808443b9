// The one object the interpreter holds: probe once, prepare per profile, launch and
// fork under the prepared sandbox, kill everything at exit.
//
//   SessionSandbox sb;                              // nothing probed yet
//   const Capabilities& caps = sb.capabilities();   // probed once, cached
//   SandboxPlan plan = compile(profile, ctx, caps);
//   if (auto r = sb.prepare(plan); !r) ...          // refuse external commands
//   for (auto& n : sb.take_notes()) warn_once(n);
//   auto lr = sb.launch(spec);                      // external command
//   auto pid = sb.fork_shell(pgid);                 // subshell / pipeline member / $(...)
//   auto fd = sb.open_for_user(path, O_WRONLY | O_CREAT | O_TRUNC);  // `echo x > f`
//   sb.kill_all();                                  // at exit, SIGHUP, SIGTERM
#pragma once
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "sandbox/broker.h"
#include "sandbox/caps.h"
#include "sandbox/launch.h"
#include "sandbox/plan.h"
#include "sandbox/prepared.h"

namespace lash::sandbox {

class SessionSandbox {
 public:
  SessionSandbox();
  SessionSandbox(const SessionSandbox&) = delete;
  SessionSandbox& operator=(const SessionSandbox&) = delete;
  ~SessionSandbox();  // kills nothing: call kill_all() explicitly at exit

  // Probed on first call, then cached for the session.
  const Capabilities& capabilities();
  // For tests and `profile review` on another machine's facts.
  void set_capabilities(Capabilities caps);

  // The session tmpdir (make_session_tmpdir), owned by this object: kill_all()
  // removes it even when no plan was ever prepared (a session that ran only builtins).
  Result<std::string> make_tmpdir();

  // Build the kernel objects for a plan (again after `profile switch`/`reload`: the
  // previous Prepared is retired but its cgroup is still killed by kill_all()).
  // On failure the previous Prepared stays in force.
  Result<void> prepare(const SandboxPlan& plan);
  // Optional, before prepare(): begin_prepare() (prepare.h) with an early plan, so the
  // slow move of lash into the session cgroup overlaps the rest of the preparation.
  Result<void> begin(const SandboxPlan& early);
  const Prepared& prepared() const { return current_; }
  const std::string& tmpdir() const { return current_.tmpdir; }

  // Open a file or directory for the user on behalf of the shell itself (builtin
  // redirections, `read <`, `.`/source, glob directory reads): through the fd broker
  // when a sandbox is in force, directly (O_CLOEXEC added) otherwise or when this
  // process is already sandboxed (a subshell). Same flags as Broker::open. The
  // broker is started by the first such open; if it cannot start, the open fails.
  // GIVE_UP: as for Broker::open, also for the direct open.
  Result<unique_fd> open_for_user(const std::string& path, int flags, mode_t mode = 0666,
                                  const std::function<bool()>& give_up = {});

  // kill(2) for a sandboxed fork of lash that Landlock's signal scoping refused:
  // asks the watchdog, which signals only lash and its descendants (watchdog.h).
  // Returns 0 or an errno; EPERM without a watchdog.
  int relay_signal(pid_t pid, int sig) const;

  // A child of lash reaped by the shell's wait: the broker's pid is forgotten if it
  // was the broker (Broker::reaped).
  void child_reaped(pid_t pid) { broker_.reaped(pid); }
  pid_t broker_pid() const { return broker_.pid(); }

  Result<LaunchResult> launch(const SpawnSpec& spec) const;
  Result<pid_t> fork_shell(pid_t pgid = -1) const;

  // Degradations and fallbacks not yet reported; each is returned once.
  std::vector<std::string> take_notes();

  // Forks the session relay (netns.h) with the listening sockets prepare() made, if
  // any: BODY runs in it under confine_relay() and must not return. lash keeps no
  // listener; the relay is killed by kill_all().
  // KEEP: other fds of lash the relay needs (the audit log); every other fd of lash
  // is closed in the relay before it is confined.
  Result<void> start_relay(const std::function<void(std::vector<RelayListener>&)>& body, std::vector<int> keep);
  bool relay_running() const { return current_.relay_pid > 0; }

  // Kill and remove every session cgroup, remove the tmpdir. Does nothing in a
  // forked copy of lash (a subshell), only in the process that prepared.
  // Returns the planted repository redirects it quarantined (prepare.h).
  std::vector<std::string> kill_all();

 private:
  std::optional<Capabilities> caps_;
  Prepared current_;
  Prepared begun_;  // from begin(), consumed by prepare()
  Broker broker_;
  std::vector<Prepared> retired_;
  std::vector<std::string> notes_;
  std::string tmpdir_;  // from make_tmpdir()
  pid_t owner_;
};

}  // namespace lash::sandbox
