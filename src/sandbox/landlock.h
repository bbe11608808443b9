// Landlock backend: the ruleset is built once per session from the plan (parent),
// and each child only calls landlock_restrict_self on it (child.cpp).
#pragma once
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/caps.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

struct LandlockRuleset {
  unique_fd fd;                       // O_CLOEXEC; invalid when the plan needs no Landlock
  int abi = 0;                        // the ABI the ruleset was built for
  std::vector<std::string> dropped;   // rights this ABI cannot enforce, said once
  std::vector<std::string> skipped;   // grants whose path does not exist
};

// Builds the ruleset. An Error when the plan needs Landlock and the kernel has none,
// or a rule cannot be added; the caller turns it into the enforce/warn decision.
// A grant whose path is in OPENED uses that O_PATH fd instead of opening the path
// (the private /proc of the session mount namespace, which the host cannot name).
struct OpenedPath {
  std::string path;
  int fd = -1;
};
// The rules of the paths in LATER are left out, for add_later_rules() once their fds
// are known: the ruleset is built while the namespace helper still makes the private
// /proc, instead of after waiting for it.
Result<LandlockRuleset> build_landlock(const SandboxPlan& plan, const Capabilities& caps,
                                       const std::vector<OpenedPath>& opened = {},
                                       const std::vector<std::string>& later = {});
Result<void> add_later_rules(LandlockRuleset& rs, const SandboxPlan& plan, const std::vector<std::string>& later,
                             const std::vector<OpenedPath>& opened);

// A ruleset that handles every file right of the ABI and grants none, with the signal
// and abstract-socket scopes where the ABI has them: for helpers that touch no file
// (the network relay confines itself with it).
Result<LandlockRuleset> build_deny_all_landlock(const Capabilities& caps);

// Which of PATHS need no rule of their own: the directory grants above an exec
// closure path (a real path by construction) give at least its rights, and the
// kernel checks a file against every rule on its way up to the root. A path in
// OPENED never covers others: its rule is on another inode (the private /proc).
// This only saves syscalls at session start (ci: ~60 of its ~320 rules are
// libraries below read_only = /usr/lib/x86_64-linux-gnu).
std::vector<bool> rules_covered_by_ancestors(const std::vector<PathRule>& paths,
                                             const std::vector<OpenedPath>& opened = {});

// Landlock access mask for abstract rights at an ABI level (exposed for tests).
uint64_t landlock_fs_access(unsigned rights, int abi, bool file);
uint64_t landlock_handled_fs(int abi);

}  // namespace lash::sandbox
