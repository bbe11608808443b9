// `lash --explain-denials`: the session's error output passes through a small helper
// that copies it on unchanged and keeps the lines that report a refusal. At the end
// of the session those lines are explained against the profile (denial_explain.h),
// printed as a summary and written to the audit log (kind "denial").
#pragma once
#include <string>

namespace lash::exec {

// Puts the helper between fd 2 and the error output lash was given. Call once, after
// the session started. Returns "" or why it could not (the session goes on without).
std::string start_denial_watch();

// At the end of the main shell: fd 2 back to what it was, the lines collected (what
// is still written after a short wait is not), the summary printed and audited.
// Nothing when no watch was started, or in a subshell.
void finish_denial_watch();

}  // namespace lash::exec
