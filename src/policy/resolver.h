// Inheritance: walk `[inherit] from` to the root, then apply set keys from the root down.
// Any unreadable or invalid file in the chain refuses the whole profile.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/profile_model.h"
#include "policy/store.h"

namespace lash::policy {

inline constexpr int kMaxInheritDepth = 16;  // `from` links followed at most

struct ResolveOptions {
  // false under a profile assigned by the system policy: no user file may shadow or
  // extend any profile of the chain.
  bool include_user = true;
  // Only the embedded profiles (the fallback to the built-in `restricted`).
  bool builtin_only = false;
};

// Pure: applies CHAIN (child first, root last) over the base values.
ResolvedProfile merge_chain(const std::vector<LoadedProfile>& chain);

Result<std::shared_ptr<const ResolvedProfile>> load_resolved(const ProfileStore& store,
                                                             std::string_view name,
                                                             ResolveOptions opts = {});

}  // namespace lash::policy
