// Once per session: turn a SandboxPlan into kernel objects (Landlock ruleset fd,
// seccomp BPF, session cgroup, rlimits, tmpdir, watchdog) held in a Prepared.
#pragma once
#include "base/result.h"
#include "sandbox/caps.h"
#include "sandbox/plan.h"
#include "sandbox/prepared.h"
#include "sandbox/session_tmpdir.h"

namespace lash::sandbox {


// What prepare() refuses from the plan and the probe alone, before it makes anything:
// plan.fs_refusals, a Landlock ABI too old for a field, no Landlock at all, each
// under `enforce`. begin_prepare() starts with it, and `profile test` asks it too, so
// that the dry run refuses what the real run will. (A namespace or cgroup that fails
// when it is made is only known by making it.)
Result<void> check_plan(const SandboxPlan& plan, const Capabilities& caps);

// An empty plan gives an empty Prepared (plain fork/exec, no cgroup, no watchdog).
// Fails when the plan needs a kernel feature that is missing and the matching
// enforcement is `enforce`; with `warn` the feature is left out and said in notes.
// Call before lash starts threads (the watchdog is a fork of lash). Makes lash
// itself non-dumpable when anything is restricted.
// BEGUN is the result of begin_prepare() (or empty: prepare() begins itself).
Result<Prepared> prepare(const SandboxPlan& plan, const Capabilities& caps, Prepared begun = {});

// The first part of prepare(), callable early with a plan that may still lack its
// exec grants (limits and tmpdir are what count): makes lash non-dumpable, creates
// the session cgroups and starts the watchdog, which moves lash into the cgroups.
// That move waits for an RCU grace period in the kernel (cgroup.h, 5-20 ms here), so
// it runs in the watchdog while lash computes the exec closure and builds the
// ruleset; prepare() waits for it at the end, before anything is forked inside.
Result<void> begin_prepare(Prepared& p, const SandboxPlan& plan, const Capabilities& caps);

// The profile's per-process limits (CPU, file size, open files, and address space in
// release builds) on lash itself, as on its children (the file size as a soft limit
// only, see prepare.cpp): a loop or a builtin write in the shell is bounded too, not
// only the programs it starts.
// RLIMIT_NPROC is left to the children and the pids controller.
Result<void> limit_self(const Limits& limits);

// At exit: kill every process of the session cgroup, remove it and the tmpdir,
// quarantine planted repository redirects (watchdog.h), release the watchdog. Safe to
// call twice. Returns the paths it quarantined, for the shell to say.
std::vector<std::string> kill_all(Prepared& prepared);

}  // namespace lash::sandbox
