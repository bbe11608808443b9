// compile(): the resolved profile + what was found about this session + what this
// kernel offers -> SandboxPlan. Pure: no I/O, no clock, no globals, so it is unit-
// tested with fake inputs and `profile review` prints exactly what prepare() applies.
#pragma once
#include <map>
#include "policy/profile_model.h"
#include "policy/session_facts.h"
#include "sandbox/caps.h"
#include "sandbox/exec_closure.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

// Everything compile() needs from the world, gathered once per session (I/O).
// Where one of lash's own directories really is, resolved the way the kernel resolves
// its path (each symlink followed where it is met, ".." after it).
struct OwnState {
  std::string spelled;             // as configured ($LASH_HOME, the system directory)
  std::string real;                // its real path; for a missing one, where it would be made
  bool exists = false;
  bool unsure = false;             // a symlink loop, or ".." in the missing part
  bool in_use = true;              // this session's; else another session's (default ~/.lash)
  std::vector<std::string> links;  // every symlink met on the way, by its real location
};
OwnState own_state_of(const std::string& spelled);

struct SessionContext {
  policy::SessionEnv env;      // PATH, start_dir, HOME, session tmpdir (already made)
  policy::SessionFacts facts;  // real paths of the spawn lists, writable roots
  ExecClosure closure;         // programs + interpreters + libraries of the allowlist
  // The /etc baseline as individual entries without the secrets (shadow, sudoers,
  // ssh host keys, private TLS keys, ...); empty: grant /etc whole.
  std::vector<std::string> etc_entries;
  // lash's own state: $LASH_HOME (profiles, config, audit log) and the system policy
  // directory. Kept read-only inside any writable grant: a child that could edit them
  // would widen the next session's policy (own_state_of() finds these facts).
  std::vector<OwnState> own_state;
  // The read_only grants as resolved at session start (expanded path -> st_dev,
  // st_ino), so that the ruleset refuses one swapped for a symlink meanwhile, as it
  // does for writable grants (WritableRoot). Missing ones are not listed.
  std::map<std::string, std::pair<uint64_t, uint64_t>> read_only_ids;
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
// CACHE_DIR: where the answer is kept between sessions (closure_cache.h); "" computes
// it afresh.
void add_exec_closure(SessionContext& ctx, const policy::ResolvedProfile& profile, const std::string& cache_dir = "");

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
