// A set of variable-name patterns (NAME or PREFIX*), matched in O(length of the name).
#pragma once
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace lash::policy {

class EnvPatterns {
 public:
  EnvPatterns() = default;
  explicit EnvPatterns(const std::vector<std::string>& patterns);
  bool matches(std::string_view name) const;
  bool empty() const { return exact_.empty() && prefixes_.empty(); }

 private:
  std::unordered_set<std::string> exact_;
  std::unordered_set<std::string> prefixes_;  // "LC_" for "LC_*", "" for "*"
  size_t max_prefix_ = 0;
};

}  // namespace lash::policy
