// Shared helpers of the policy unit tests.
#pragma once
#include <memory>
#include <string>

#include "policy/profile_loader.h"
#include "policy/resolver.h"
#include "policy/store.h"

namespace lash::policy::test {

// A profile parsed from TEXT as if it were the user file NAME.profile.
inline Result<LoadedProfile> parse(const std::string& text, const std::string& name = "t") {
  return parse_profile(ProfileFile{name, Source::user, name + ".profile", text});
}

// Resolves NAME against a store holding only the built-ins plus TEXT as a user profile.
inline std::shared_ptr<const ResolvedProfile> resolved(const std::string& text,
                                                       const std::string& name = "t") {
  MemoryStore store;
  store.set(Source::user, name, text);
  auto r = load_resolved(store, name);
  if (!r) throw std::runtime_error(r.error().message());
  return *r;
}

}  // namespace lash::policy::test
