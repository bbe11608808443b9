// `lash --explain-denials`: which rule of the profile most likely refused what a
// program of the session reported as "Permission denied" (or "Operation not
// permitted", "Read-only file system") on its error output.
//
// Why from the error output: Landlock's own audit records (ABI 7) reach only a
// reader of the kernel audit log (CAP_AUDIT_READ, audit enabled), which a user's
// session does not have. What a program says is read instead, and every path it names
// is checked against the session's sandbox plan and decided again by the same engine
// as `profile test`. What this can and cannot see is written in docs/sandbox.md.
//
// Pure apart from FileProbe (the caller passes the real filesystem).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/decision.h"
#include "policy/engine.h"
#include "policy/session_facts.h"
#include "sandbox/plan.h"

namespace lash::exec {

// Does LINE report a refusal by the kernel (EACCES, EPERM, EROFS)?
bool reports_refusal(std::string_view line);

// The paths (or, quoted without a slash, command names) LINE names: quoted words
// ('x', "x", `x', ‘x’) and ": "-separated fields that look like paths ("/a", "./a",
// "../a", "~/a"). In the order met, without repeats.
std::vector<std::string> names_in(std::string_view line);

struct FileProbe {
  // Real path of an existing file, "" when it does not exist.
  std::function<std::string(const std::string&)> realpath;
  // 'd' directory, 'x' regular file with an execute bit, 'f' other file, 0 missing.
  std::function<char(const std::string&)> kind;
  // NAME resolved over PATH as the session would, "" when not found.
  std::function<std::string(const std::string&)> find_program;
};
FileProbe real_file_probe(const std::string& path_var);

// Rights (sandbox::rights) PLAN grants on PATH (absolute, normalized): the union of
// every directory rule above it and the file rules on it, as Landlock combines them;
// less write under a protected path and less execute under a noexec mount.
unsigned granted_rights(const sandbox::SandboxPlan& plan, const std::string& path);

struct Explained {
  std::string path;      // absolute
  std::string right;     // "execute", "read", "write"
  policy::KeyRef key;    // the key that would allow it, where it was set
  std::string change;    // what to change: "add /w/bin to [process] exec_paths"
  std::string seen;      // the line of output it came from
};

// Every refusal LINES name that PLAN would cause, with the key that would allow it.
// Paths the plan grants every needed right on (the refusal came from elsewhere: file
// modes, a program's own check) are left out. ENV's start_dir makes relative names
// absolute (the failing program's own directory is not known), its home expands "~/".
std::vector<Explained> explain_lines(const std::vector<std::string>& lines, const policy::Engine& engine,
                                     const sandbox::SandboxPlan& plan, const policy::SessionEnv& env,
                                     const FileProbe& probe);

// The summary printed at the end of the session (several lines, each ending in '\n').
// SEEN: how many lines reported a refusal at all.
std::string summary_text(const std::vector<Explained>& ex, size_t seen, bool truncated);

}  // namespace lash::exec
