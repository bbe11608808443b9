// make_session_facts() with the real paths of the spawn lists kept between sessions.
// Finding each allowlisted name on PATH and resolving its symlinks is a PATH search
// per name (about 90 for `ci`); the answer changes only when a PATH directory, a
// directory on a symlink chain, or a file found changes. Those are recorded with the
// answer in $LASH_HOME/cache/facts-HASH and checked with one stat() apiece
// (base/state_cache.h); the writable roots are always resolved afresh (a few paths).
//
// The answer decides which programs the policy lets run, so it is trusted exactly
// like the exec-closure cache beside it (sandbox/closure_cache.h): only in $LASH_HOME,
// only for a profile lash.conf did not assign, only from a file and directory of this
// user's that nobody else may write. A PATH with a relative entry (resolved against
// the current directory) is never cached.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "policy/session_facts.h"

namespace lash::policy {

// make_session_facts(PROFILE, ENV) through the cache in DIR ("" never uses one).
SessionFacts cached_session_facts(const std::string& dir, const ResolvedProfile& profile, const SessionEnv& env);

// The parts, for tests. The cache file name for these inputs:
std::string facts_cache_name(const Profile& p, const SessionEnv& env);
// The spawn lists resolved now, as cache text with the state of every dependency;
// nullopt when it must not be stored (see state_cache.h; a relative PATH entry).
std::optional<std::string> facts_cache_text(const Profile& p, const SessionEnv& env, int64_t computed_at_ns);
// The spawn lists' part of the facts from TEXT, if it is for these inputs and every
// dependency is as recorded.
std::optional<SessionFacts> facts_from_cache_text(const std::string& text, const Profile& p, const SessionEnv& env);

}  // namespace lash::policy
