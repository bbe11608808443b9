// The dry run of `profile test`: every simple command of a program is planned with
// the same planner as a real run (in dry mode: no substitution runs, nothing is
// assigned) and its actions decided by the same engine. Control flow is walked
// statically: both branches of an `if`, loop bodies once, every `case` item,
// function bodies, pipelines, subshells and the bodies of substitutions.
#pragma once
#include <string>
#include <vector>

#include "exec/policy_gate.h"
#include "syntax/ast.h"

namespace lash::exec {

class Shell;

std::vector<CheckedAction> dry_run(Shell& sh, const ast::List& program, const policy::Engine& engine);

}  // namespace lash::exec
