// compile(): the resolved profile + what was found about this session + what this
// kernel offers -> SandboxPlan. Pure: no I/O, no clock, no globals, so it is unit-
// tested with fake inputs and `profile review` prints exactly what prepare() applies.
#pragma once
#include "policy/profile_model.h"
#include "policy/session_facts.h"
#include "sandbox/caps.h"
#include "sandbox/exec_closure.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

// Everything compile() needs from the world, gathered once per session (I/O).
struct SessionContext {
  policy::SessionEnv env;      // PATH, start_dir, HOME, session tmpdir (already made)
  policy::SessionFacts facts;  // real paths of the spawn lists, writable roots
  ExecClosure closure;         // programs + interpreters + libraries of the allowlist
  // The /etc baseline as individual entries without the secrets (shadow, sudoers,
  // ssh host keys, private TLS keys, ...); empty: grant /etc whole.
  std::vector<std::string> etc_entries;
  // lash's own state: $LASH_HOME (profiles, config, audit log) and the system policy
  // directory, as real paths (a part that does not exist yet is appended to the real
  // path of what does). Kept read-only inside any writable grant: a child that could
  // edit them would widen the next session's policy.
  std::vector<std::string> own_state;
  // Symlinks on the way to them ("$LASH_HOME -> /x": the link's path). One inside a
  // writable grant could be replaced by a child, pointing the next session elsewhere;
  // no mount can pin a symlink, so compile() refuses the filesystem policy then.
  std::vector<std::pair<std::string, std::string>> own_state_links;  // {spelled dir, link}
};

// What the /etc baseline leaves out: readable by root otherwise.
const std::vector<std::string>& etc_secrets();

// Does the I/O: make_session_facts() and, with spawn_any=false, the exec closure of
// the allowlist's real paths.
SessionContext make_session_context(const policy::ResolvedProfile& profile, policy::SessionEnv env);
// The same with facts the caller already resolved (the session shares them with
// the policy engine instead of resolving the allowlist twice). WITH_CLOSURE = false
// leaves the closure out (the costly part), for an early compile() whose limits and
// tmpdir start the session cgroup (begin_prepare); add_exec_closure() completes it.
SessionContext make_session_context(const policy::ResolvedProfile& profile, policy::SessionEnv env,
                                    policy::SessionFacts facts, bool with_closure = true);
void add_exec_closure(SessionContext& ctx, const policy::ResolvedProfile& profile);

SandboxPlan compile(const policy::ResolvedProfile& profile, const SessionContext& ctx,
                    const Capabilities& caps);

// True when the profile gives a non-empty plan, so children are not started as
// under a plain shell (decided without the session's I/O: compile() on an empty
// context with no kernel features assumed).
bool needs_sandbox(const policy::ResolvedProfile& profile);
// That plan itself (compile() on an empty context): its emptiness and its limits are
// the profile's, without any of the session's I/O.
SandboxPlan plan_without_context(const policy::ResolvedProfile& profile);

// The system directories that hold programs: a read grant covering one of them lets
// the ELF interpreter run any program there, whatever the allowlist says.
const std::vector<std::string>& program_directories();

}  // namespace lash::sandbox
