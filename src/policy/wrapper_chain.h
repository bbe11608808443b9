// Allowlisted names that resolve to wrapper scripts (a pyenv or asdf shim, a #!
// wrapper): the chain of interpreters and programs the wrapper needs, found once when
// the session starts. A wrapper whose chain leaves the allowlist would fail later with a
// bare "Permission denied" from the kernel; the engine refuses it up front instead and
// names the missing program and the key (issue: "interpreters behind wrappers").
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "policy/session_facts.h"

namespace lash::policy {

// For each allowlisted real path in FACTS that is a script: its chain, when one program
// of it is outside the allowlist and the exec paths (FACTS.exec_roots). Only such gaps
// are returned, keyed by the wrapper's real path.
std::unordered_map<std::string, WrapperGap> find_wrapper_gaps(const SessionFacts& facts, const SessionEnv& env);

// What a script's #! line runs (HEAD: its first bytes, starting "#!"): the
// interpreter and, for "/usr/bin/env [-S] NAME", NAME found over ENV.path_var; each
// by its real path, or as written when it does not exist.
std::vector<std::string> shebang_programs(const std::string& head, const SessionEnv& env);

// The chain as review prints it: "a -> b -> c".
std::string chain_text(const WrapperGap& g);

}  // namespace lash::policy
