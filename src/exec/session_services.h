// What the session provides to the interpreter: the sandbox its programs and
// subshells start under, the refusal when this kernel cannot give that sandbox, the
// fd broker, the signal relay and the audit log. Shell keeps interpreter state only;
// it reaches these through one injected interface (Shell::services()). A bare
// interpreter (unit tests, before a session starts) gets PlainServices: no sandbox,
// plain open(), nothing audited.
#pragma once
#include <sys/types.h>

#include <cerrno>

#include <functional>
#include <string>

#include "policy/action.h"
#include "policy/decision.h"
#include "sandbox/prepared.h"

namespace lash::exec {

class SessionServices {
 public:
  virtual ~SessionServices() = default;
  // The session's sandbox, made on first use (before the first fork).
  virtual const sandbox::Prepared& prepared() = 0;
  // Non-empty when the profile needs a sandbox this kernel cannot give (enforce):
  // the reason, which the launch check takes as a fact (launch.h). Makes the sandbox
  // first if it is not made yet.
  virtual const std::string& refusal() = 0;
  // Whether the shell's own opens for the user go through the broker.
  virtual bool has_broker() = 0;
  // Opens PATH for the shell itself through the sandbox's broker: the fd, or -1 with
  // *err set. GIVE_UP is asked when a signal interrupts a blocking open. Only when
  // has_broker().
  virtual int open_for_user(const std::string& path, int flags, const std::function<bool()>& give_up, int* err) = 0;
  // kill(2) refused with EPERM in a sandboxed fork of lash (Landlock's signal scope):
  // the session signals one of its own processes. 0 or an errno (EPERM, kill's own
  // answer, when there is no relay).
  virtual int relay_signal(pid_t pid, int sig) = 0;
  // A reaped child that is not a job: perhaps one of the session's helpers.
  virtual void child_reaped(pid_t pid) = 0;
  // The fd broker's pid (lash's numbering), -1 when there is none.
  virtual pid_t broker_pid() = 0;
  // Writes the audit record of a decision the session made outside the policy
  // engine (the launch refusal), as the engine's decisions are.
  virtual void audit(const policy::Action& action, const policy::Decision& decision) = 0;
};

// No session: no sandbox, no broker, no relay, nothing audited.
class PlainServices final : public SessionServices {
 public:
  const sandbox::Prepared& prepared() override { return none_; }
  const std::string& refusal() override { return no_refusal_; }
  bool has_broker() override { return false; }
  int open_for_user(const std::string&, int, const std::function<bool()>&, int* err) override {
    *err = ENOSYS;
    return -1;
  }
  int relay_signal(pid_t, int) override { return EPERM; }
  void child_reaped(pid_t) override {}
  pid_t broker_pid() override { return -1; }
  void audit(const policy::Action&, const policy::Decision&) override {}

 private:
  const sandbox::Prepared none_{};
  const std::string no_refusal_;
};

}  // namespace lash::exec
