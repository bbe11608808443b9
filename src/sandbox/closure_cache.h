// resolve_exec_closure() with its answer kept between sessions. Reading the ELF
// headers of every allowlisted program and library is most of a session's start-up
// under an allowlist; the answer changes only when one of the files or directories
// it depended on (ExecClosure::depends_on) changes. So each session checks those
// with one stat() apiece and reads the answer from the cache, or computes it and
// stores it when none matches.
//
// Trust. The cache lives in $LASH_HOME/cache and is trusted like the profiles in
// $LASH_HOME/profiles: whoever can write there can already choose the session's
// policy. So a session whose profile lash.conf assigned (loaded without the user
// directory) does not use it (the caller passes no directory). A cache file is read
// only if it and its directory belong to this user and nobody else may write them;
// a malformed or mismatching one is ignored and replaced, never an error.
//
// Staleness: each dependency is recorded and checked as base/state_cache.h says.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/exec_closure.h"

namespace lash::sandbox {

// The answer for PROGRAMS (sorted real paths), from the cache in DIR when it is
// current, else computed by resolve_exec_closure() and stored there. DIR "" never
// uses a cache.
ExecClosure cached_exec_closure(const std::string& dir, const std::vector<std::string>& programs);

// The parts, for tests.
std::string closure_cache_file(const std::string& dir, const std::vector<std::string>& programs);
// The cache text for CLOSURE, with each dependency's state as of now; nullopt when
// it must not be stored: a dependency changed at or after COMPUTED_AT_NS - 2 s (the
// CLOCK_REALTIME when the computing began), could not be examined (other than by
// not existing), or a string holds a tab or a line break.
std::optional<std::string> closure_cache_text(const std::vector<std::string>& programs, const ExecClosure& closure,
                                              int64_t computed_at_ns);
// The closure TEXT holds for PROGRAMS, if every dependency is as recorded.
std::optional<ExecClosure> closure_from_cache_text(const std::string& text, const std::vector<std::string>& programs);

}  // namespace lash::sandbox
