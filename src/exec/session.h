// A lash session: the selected profile, the one decision engine built from it, the
// audit sink, and the policy gate the interpreter consults. Started once by main
// (again on `profile switch` / `reload`), ended once.
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "audit/record.h"
#include "audit/sink.h"
#include "base/result.h"
#include "policy/engine.h"
#include "policy/json_text.h"
#include "policy/selector.h"
#include "policy/session_facts.h"
#include "exec/session_services.h"
#include "sandbox/session_sandbox.h"

namespace lash::exec {

class Shell;

// The session's services as the interpreter sees them (session_services.h): the
// sandbox of the active profile, made on first use, and its refusal.
class ActiveServices final : public SessionServices {
 public:
  const sandbox::Prepared& prepared() override;
  const std::string& refusal() override;
  bool has_broker() override;
  int open_for_user(const std::string& path, int flags, const std::function<bool()>& give_up, int* err) override;
  int relay_signal(pid_t pid, int sig) override;
  void child_reaped(pid_t pid) override;
  pid_t broker_pid() override;
  void audit(const policy::Action& action, const policy::Decision& decision) override;

  // Set by activate_profile: makes the sandbox of the profile just activated.
  std::function<void()> arm;
  // The refusal known without making the sandbox: nullopt while it is not made.
  std::optional<std::string> known_refusal() const;

  const sandbox::Prepared* prepared_ = nullptr;  // null: no sandbox (a plain shell): no broker, no relay
  std::string refusal_;

 private:
  void make() {
    if (!arm) return;
    auto f = std::move(arm);
    arm = nullptr;
    StdFdsHeld held;
    f();
  }
  // The sandbox opens descriptors of its own (pipes, namespace and ruleset fds, the
  // watchdog's). Where the script has closed one of 0, 1, 2 (`exec 1>&- 2>&-`) they
  // would land there, and the script's next redirection of that fd would close or
  // replace one of lash's own. /dev/null holds each closed one while the sandbox is
  // made, and is closed again after.
  struct StdFdsHeld {
    int held[3] = {-1, -1, -1};
    StdFdsHeld();
    ~StdFdsHeld();
  };
  const sandbox::Prepared none_{};
};

struct Session {
  policy::Selection selection;
  std::shared_ptr<const policy::ResolvedProfile> active;  // the profile in force
  audit::Context audit_context;
  std::unique_ptr<audit::JsonlFileSink> sink;
  std::string id;  // LASH_SESSION
  policy::SessionEnv env;  // PATH, start dir, HOME, session tmpdir: fixed at start
  std::unique_ptr<sandbox::SessionSandbox> sandbox;
  // Why the audit log could not be written, "" while it can. Set by the first write
  // that fails (a record under [monitoring], or a denial), never cleared: from then
  // on the gate refuses every program and redirection (fail closed) and nothing more
  // is written. Kept across `profile switch`. In a subshell it is the subshell's own.
  std::string audit_failure;
  ActiveServices services;
  // profile.auto_detect (auto_suggest.cpp): whether it is on for this session, the
  // profiles the user dismissed (for the whole session), the last one suggested, and
  // the repository root last looked at (a `cd` into another one looks again).
  bool auto_detect = false;
  std::set<std::string> dismissed;
  std::string last_suggestion;
  std::string detect_root;
};

// Profile auto-detect (auto_suggest.cpp): the one-line suggestion at the start of an
// interactive session, and again after `cd` enters another repository root. Never a
// switch.
void suggest_at_start(Shell& sh);
void suggest_after_cd(Shell& sh);
// `profile dismiss [NAME]`: NAME (default: the last suggestion) is not suggested
// again in this session. Returns the name dismissed, or an Error.
Result<std::string> dismiss_suggestion(const std::optional<std::string>& name);
// Writes one audit event of the session that is not an engine decision (kind "profile":
// switches; kind "denial": --explain-denials), EXTRA's keys added
// to the record; a failed write closes the session as every audit failure does.
void audit_event(std::string_view kind, std::string_view target, std::string_view decision, std::string_view message,
                 const policy::Json& extra = policy::Json::object());

// Selects and loads the session's profile (-p NAME when given), builds the engine,
// installs the policy gate and the exported-variable guard into sh, exports
// LASH_SESSION. A session whose profile needs the kernel sandbox also closes the fds
// above 2 it inherited and limits the shell itself (sandbox::limit_self). An Error means the explicitly requested profile cannot be used: the
// caller exits with status 2.
Result<void> start_session(Shell& sh, std::optional<std::string> requested);

// Makes `profile` (already resolved) the active one: new engine, same session.
void activate_profile(Shell& sh, std::shared_ptr<const policy::ResolvedProfile> profile);

// PATH, starting directory and HOME of this shell, for session facts.
policy::SessionEnv session_env_of(Shell& sh);

// The kernel part of `profile review`: the compiled sandbox plan of PROFILE on this
// machine, with what this kernel cannot enforce.
std::string sandbox_review_text(Shell& sh, const policy::ResolvedProfile& profile);
policy::Json sandbox_review_json(Shell& sh, const policy::ResolvedProfile& profile);
// The plan itself (plugin grants are reviewed against it).
sandbox::SandboxPlan sandbox_review_plan(Shell& sh, const policy::ResolvedProfile& profile);

// Why a session under PROFILE would refuse every program for want of its sandbox,
// asked the way the real run asks it (sandbox::check_plan on the plan compiled for
// this machine); for the active profile, also a refusal its sandbox already met.
// nullopt when programs would run.
std::optional<std::string> sandbox_refusal_for(Shell& sh, const policy::ResolvedProfile& profile);

// `profile edit`: $VISUAL/$EDITOR on a copy of PATH; the copy replaces PATH only if
// it validates. Returns the builtin's status.
int edit_profile_file(Shell& sh, const std::string& name, const std::string& path);

// The running session (null before start_session).
Session* current_session();

// The plan the active profile gets in this session (compiled afresh, as `profile
// review` does); an empty plan when there is no session. For --explain-denials.
sandbox::SandboxPlan active_session_plan();

// Writes an audit record of a decision when the profile's monitoring asks for it
// (denials always). A write failure is reported on stderr with a Problem/Suggestion
// and stops the session's programs and redirections (Session::audit_failure).
void audit_decision(const policy::Action& action, const policy::Decision& decision);

}  // namespace lash::exec
