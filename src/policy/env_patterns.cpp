#include "policy/env_patterns.h"

#include <algorithm>

namespace lash::policy {

EnvPatterns::EnvPatterns(const std::vector<std::string>& patterns) {
  for (const auto& p : patterns) {
    if (!p.empty() && p.back() == '*') {
      prefixes_.insert(p.substr(0, p.size() - 1));
      max_prefix_ = std::max(max_prefix_, p.size() - 1);
    } else {
      exact_.insert(p);
    }
  }
}

bool EnvPatterns::matches(std::string_view name) const {
  if (!exact_.empty() && exact_.count(std::string(name))) return true;
  if (prefixes_.empty()) return false;
  for (size_t n = 0; n <= std::min(name.size(), max_prefix_); ++n)
    if (prefixes_.count(std::string(name.substr(0, n)))) return true;
  return false;
}

}  // namespace lash::policy
