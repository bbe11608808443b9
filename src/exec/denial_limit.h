// [monitoring] max_denials: a session ends after that many refused actions. The count
// lives in one shared anonymous page mapped before the first fork, so a refusal in a
// subshell or pipeline member counts for the whole session (a script cannot dodge the
// limit by refusing inside `( ... )`). The process that reaches the limit ends; the
// main shell sees the count at its next command boundary and ends the session.
#pragma once
#include <cstdint>

namespace lash::exec {

class Shell;

// The active profile's limit (0: none). Maps the counter on first use.
void set_denial_limit(uint64_t max);
// One refused action (called for every denial the session audits).
void note_denial();
bool denial_limit_reached();
// Ends this process (the main shell: the session) with status 126, saying why.
[[noreturn]] void end_for_denials(Shell& sh);

}  // namespace lash::exec
