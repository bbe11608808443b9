// Where the interpreter meets the policy engine. The planner turns a SimplePlan
// into policy Actions (program real path, absolute symlink-resolved redirect
// targets, exported-variable changes, builtin capabilities); check() asks the one
// engine about each. The real run and `profile test` both go through these two
// functions, so they cannot disagree on a determined action.
#pragma once
#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/plan.h"
#include "policy/action.h"
#include "policy/child_env.h"
#include "policy/decision.h"

namespace lash::policy {
class Engine;
}

namespace lash::exec {

class Shell;

// (PlannedAction, the unit of both, is in builtin_api.h: builtins declare them.)

// The actions of one planned simple command, in the order they would happen.
std::vector<PlannedAction> plan_actions(Shell& sh, const SimplePlan& p);

struct CheckedAction {
  PlannedAction planned;
  policy::Decision decision;
};

// A change of variable NAME by OP, appended to OUT when it is an action: NAME is
// exported (or ONLY_IF_EXPORTED is false) and is not one the shell itself maintains
// (PWD, OLDPWD, OPTIND). Builtins' effects functions declare their changes with it.
void add_env_action(Shell& sh, std::vector<PlannedAction>& out, const std::string& name, policy::EnvOp op,
                    bool only_if_exported);
// Starting the program NAME (looked up on PATH unless it has a slash), with its real path.
PlannedAction spawn_action(Shell& sh, const std::string& name);

// `for NAME in ...` assigns NAME: an action when NAME is exported.
std::optional<PlannedAction> loop_variable_action(Shell& sh, const std::string& name);

// Decides every action with the engine. The only caller of Engine::decide for
// shell actions.
std::vector<CheckedAction> check(const std::vector<PlannedAction>& actions, const policy::Engine& engine);

// An action the policy allows but the session cannot sandbox (sandbox::check_plan,
// or a failure while the sandbox was made): a program, or a file the shell would open
// for the user through the sandbox's broker. Refused, with REASON as the suggestion.
// WHAT is "run 'sh'" or "open 'out.txt'". The real run prints it; `profile test`
// reports it for each such action.
policy::Decision sandbox_refusal_decision(const std::string& profile, const std::string& what,
                                          const std::string& reason);
// Prints that refusal (Problem/Suggestion on stderr) for the session's refusal.
void report_sandbox_refusal(Shell& sh, const std::string& what);

// The session's audit log could not be written (CAUSE): a program or a redirection
// (WHAT, as above) is refused, since the session could no longer record what it does.
policy::Decision audit_failure_decision(const std::string& profile, const std::string& what,
                                        const std::string& cause);

// An action the builtin itself decides as it runs (PlannedAction::at_run_time), through
// the session's engine: audited like every decision, and on refusal the Problem and
// Suggestion lines are printed. True when allowed (or there is no gate).
bool gate_allows_now(Shell& sh, const policy::Action& action);

// The session's policy as the interpreter sees it: set up by main, absent in
// tests of the bare interpreter (then nothing is checked).
struct PolicyGate {
  // The engine is built on first use: resolving the allowlist over PATH costs
  // stat calls that a session running only builtins never needs.
  const policy::Engine& engine();
  std::function<std::shared_ptr<const policy::Engine>()> make_engine;
  std::shared_ptr<const policy::Engine> built;
  std::string profile_name;
  // Writes the audit record of a decision (denials always; allowed actions when
  // monitoring is on). Reports a write failure on stderr itself.
  std::function<void(const policy::Action&, const policy::Decision&)> audit;
  // The record of an allowed program, written when it ends, with its pid and exit
  // status (cli.md: "for processes the pid and exit status").
  std::function<void(const policy::Action&, const policy::Decision&, pid_t, int)> audit_process;
  bool monitoring = false;  // allowed actions are recorded too
  // A command name that names nothing (status 127): recorded under monitoring as an
  // attempt ("decision": "not-found"); no profile key decided it.
  std::function<void(const std::string& name)> audit_not_found;
  // [environment] deny / force / pass for children; null when the profile sets none.
  std::shared_ptr<const policy::ChildEnv> child_env;
  std::vector<std::string> always_env;  // LASH_SESSION=..., whatever the profile says
  // Why the session's audit log cannot be written ("" while it can; exec/session.h).
  // Once set, programs and redirections are refused: fail closed.
  std::function<std::string()> audit_failure;
};

// Absolute, symlink-resolved form of a redirect target (the file may not exist yet:
// its directory is resolved and the name appended).
std::string resolve_target_path(const std::string& path);

// An allowed spawn whose audit record waits for the process to end.
struct PendingSpawnRecord {
  policy::Action action;
  policy::Decision decision;
};

// Checks the plan against the session's gate; on refusal prints the Problem and
// Suggestion lines, audits, and returns false (the caller returns 126). A program or
// redirection is refused too once the audit log cannot be written. An allowed
// spawn's record (under monitoring) is left in *spawn_record for the caller to
// write with the pid and exit status.
bool gate_allows(Shell& sh, const SimplePlan& p, std::optional<PendingSpawnRecord>* spawn_record = nullptr);

// Checks one change of an exported variable made outside a planned command (a
// `for` variable, ${x=...}, read, arithmetic). Prints and audits a refusal.
bool gate_allows_env(Shell& sh, const std::string& name, policy::EnvOp op);

}  // namespace lash::exec
