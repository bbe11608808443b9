// The environment of every child, built from [environment] deny / force / pass
// (enforcement.md: nothing else is inherited). Compiled once per session.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "policy/env_patterns.h"
#include "policy/profile_model.h"

namespace lash::policy {

class ChildEnv {
 public:
  explicit ChildEnv(const Profile& p);
  // EXPORTED are the shell's exported "NAME=VALUE" strings. Order of rules: keep only
  // names matching `pass` (when pass is set), strip names matching `deny`, then add
  // `force` (replacing a kept value), then ALWAYS (e.g. LASH_SESSION=...), which lash
  // sets in every child whatever the profile says.
  std::vector<std::string> build(std::span<const std::string> exported,
                                 std::span<const std::string> always = {}) const;

 private:
  bool pass_set_ = false;
  EnvPatterns pass_, deny_;
  std::vector<std::string> force_;
};

}  // namespace lash::policy
