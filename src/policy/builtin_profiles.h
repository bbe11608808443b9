// The shipped profiles/ files, embedded into the binary by profiles/embed.py.
#pragma once
#include <span>
#include <string_view>

namespace lash::policy {

struct BuiltinProfile {
  std::string_view name;
  std::string_view text;
};
std::span<const BuiltinProfile> builtin_profiles();  // sorted by name

}  // namespace lash::policy
