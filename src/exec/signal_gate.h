// The `kill` builtin's check for targets that are not the shell's own jobs (issue 17).
// Signalling the session's own processes is allowed under every profile, as it is
// for a program inside the sandbox. Signalling anything else is a Builtin action the
// engine decides: job_control_others, or session_manage when the target is another
// lash; a refusal is printed (Problem/Suggestion), audited, and the builtin returns
// 126. The kernel backs the check: in a session with its own pid namespace the signal
// is sent from a short fork inside that namespace through a pidfd, so a process
// outside (or a pid reused meanwhile) cannot be reached even if the check erred.
// Kept apart from the builtin so that the dry run's effect declarations can call it.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace lash::exec {

class Shell;

// The builtin's answer for one operand.
inline constexpr int kSignalRefused = -1;  // refused by the policy: reported, status 126

// Sends SIG to TARGET (a pid; -PGID for a process group; -1 for every process the
// user may signal) in the numbering the session's processes use. ARG is the operand
// as typed (for messages). Returns 0, an errno (the caller says it), or
// kSignalRefused (already reported and audited).
int signal_not_a_job(Shell& sh, int64_t target, int sig, const std::string& arg);

// Whether TARGET is outside the session as the policy sees it (no signal sent): not
// lash, not a descendant of lash, not in the session's pid namespace. For `profile
// test` and tests.
bool signal_target_outside(int64_t target);

}  // namespace lash::exec
