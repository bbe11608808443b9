#include "policy/child_env.h"

#include <string_view>
#include <unordered_set>

namespace lash::policy {

ChildEnv::ChildEnv(const Profile& p)
    : pass_set_(p.env_pass.set),
      pass_(p.env_pass.value),
      deny_(p.env_deny.value),
      force_(p.env_force.value) {}

static std::string_view name_of(std::string_view kv) { return kv.substr(0, kv.find('=')); }

std::vector<std::string> ChildEnv::build(std::span<const std::string> exported,
                                         std::span<const std::string> always) const {
  std::unordered_set<std::string_view> overridden;
  for (const auto& kv : force_) overridden.insert(name_of(kv));
  for (const auto& kv : always) overridden.insert(name_of(kv));
  std::vector<std::string> out;
  out.reserve(exported.size() + force_.size() + always.size());
  for (const auto& kv : exported) {
    std::string_view name = name_of(kv);
    if (name.size() == kv.size()) continue;  // not NAME=VALUE
    if (pass_set_ && !pass_.matches(name)) continue;
    if (deny_.matches(name) || overridden.count(name)) continue;
    out.push_back(kv);
  }
  std::unordered_set<std::string_view> seen;
  for (auto it = always.rbegin(); it != always.rend(); ++it)
    if (seen.insert(name_of(*it)).second) out.push_back(*it);
  for (auto it = force_.rbegin(); it != force_.rend(); ++it)
    if (seen.insert(name_of(*it)).second) out.push_back(*it);
  return out;
}

}  // namespace lash::policy
