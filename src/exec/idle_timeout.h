// How long an interactive shell waits for terminal input before it logs out: TMOUT
// (bash), bounded by the profile's [monitoring] idle_timeout, which the user cannot
// raise or turn off. Asked at every wait for the terminal: PS1, PS2 (open quotes,
// here-doc bodies, compound commands) and the read builtin.
#pragma once

namespace lash::exec {

class Shell;

// The active profile's idle_timeout in seconds (0: none; capped at 1,000,000).
int profile_idle_timeout();
// TMOUT (a positive number, else none) bounded by profile_idle_timeout().
int idle_timeout_seconds(Shell& sh);

}  // namespace lash::exec
