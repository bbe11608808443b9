// The one way the interpreter starts a program. check_plan() is the check of a
// planned simple command before anything of it runs: the policy engine decides its
// actions (gate_allows), and a plan that starts a program meets one more fact, the
// session's launch refusal (this kernel cannot give the profile's sandbox), decided,
// printed and audited like the engine's denials and as `profile test` reports it.
// Only check_plan() makes a CheckedPlan, and launch_checked() takes nothing else:
// no program starts unchecked (a command, a pipeline member or subshell's last
// command, the `exec` builtin, `profile edit`'s editor).
#pragma once
#include <optional>

#include "exec/plan.h"
#include "exec/policy_gate.h"

namespace lash::exec {

class Shell;

// Checks P (see above). For a plan that starts a program (an external command, the
// `exec` builtin with a command that exists) the result carries the CheckedPlan of
// that program.
struct Checked;
Checked check_plan(Shell& sh, const SimplePlan& p);

class CheckedPlan {
 public:
  const SimplePlan& plan() const { return plan_; }
  // The audit record of an allowed spawn under monitoring, written with its pid and
  // status when it ends.
  const std::optional<PendingSpawnRecord>& record() const { return record_; }

 private:
  friend Checked check_plan(Shell& sh, const SimplePlan& p);
  CheckedPlan(SimplePlan plan, std::optional<PendingSpawnRecord> record)
      : plan_(std::move(plan)), record_(std::move(record)) {}
  SimplePlan plan_;
  std::optional<PendingSpawnRecord> record_;
};

struct Checked {
  bool allowed = true;                // false: refused, the lines are printed (status 126)
  std::optional<CheckedPlan> launch;  // the program P starts, when it starts one
};

// Starts the checked program and waits for it (a command), or becomes it (IN_PLACE:
// the last command of a subshell, the `exec` builtin), returning only on failure.
// Returns the status. A file execve refuses with ENOEXEC runs as a script of lash.
int launch_checked(Shell& sh, const CheckedPlan& cp, bool in_place);

}  // namespace lash::exec
