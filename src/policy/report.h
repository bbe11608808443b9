// The one renderer of an action and its decision as JSON (cli.md): the per-action
// object of `profile test --json`, which the audit record embeds unchanged, so the dry
// run and the audit log can be compared field by field.
#pragma once
#include "policy/action.h"
#include "policy/decision.h"
#include "policy/json_text.h"

namespace lash::policy {

// {"kind", "target", kind-specific fields ("resolved", "mode", "op", "plugin"/"method",
//  "capability", "host"/"ip"/"port"/"sni"), "decision", "key", "source",
//  and for refusals "problem" and "suggestion" (and "advisory": true under warn)}
Json action_json(const Action& a, const Decision& d);

// A run-time-only word in the dry run (cli.md): {"decision": "dynamic"}.
Decision dynamic_decision();

}  // namespace lash::policy
