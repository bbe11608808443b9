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
Result<LandlockRuleset> build_landlock(const SandboxPlan& plan, const Capabilities& caps,
                                       const std::vector<OpenedPath>& opened = {});

// Landlock access mask for abstract rights at an ABI level (exposed for tests).
uint64_t landlock_fs_access(unsigned rights, int abi, bool file);
uint64_t landlock_handled_fs(int abi);

}  // namespace lash::sandbox
