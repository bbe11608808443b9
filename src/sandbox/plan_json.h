// The sandbox plan as structured JSON (`profile review --json --plan`, `profile test
// --json`): the same data plan_lines() prints, in the schema docs/usage.md documents.
// Kept apart from plan.h so the plan stays free of any output format.
#pragma once
#include "policy/json_text.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

policy::Json plan_json(const SandboxPlan& plan);

}  // namespace lash::sandbox
