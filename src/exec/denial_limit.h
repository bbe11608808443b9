// [monitoring] max_denials: a session ends after that many refused actions. The count
// lives in one shared anonymous page mapped before the first fork, so a refusal in a
// subshell or pipeline member counts for the whole session (a script cannot dodge the
// limit by refusing inside `( ... )`). The process that reaches the limit ends; the
// main shell sees the count at its next command boundary and ends the session; while
// it waits for a program, at the first child that ends (end_now_if_denial_limit).
#pragma once
#include <cstdint>

namespace lash::exec {

class Shell;

// The active profile's limit (0: none). Maps the counter on first use.
void set_denial_limit(uint64_t max);
// One refused action (called for every denial the session audits).
void note_denial();
bool denial_limit_reached();
// The limit reached while the shell waits for a program (wait_pid wakes on any child:
// the network relay exits at the limit, a subshell ends at it): every program of the
// session is killed at once, then the session ends as below. Returns when not reached.
void end_now_if_denial_limit(Shell& sh);
// Ends this process (the main shell: the session) with status 126, saying why.
[[noreturn]] void end_for_denials(Shell& sh);

}  // namespace lash::exec
