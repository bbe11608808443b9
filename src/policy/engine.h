// The one decision engine (enforcement.md): every action the shell, the dry run, the
// network relay and the plugin host take is decided here. PURE: decide() reads only the
// Action, the resolved profile and the SessionFacts built once at session start - no
// I/O, no clock, no environment - so the same Action always gets the same Decision.
// Default deny everywhere. decide() is O(1) in the size of the lists (hash sets).
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "policy/action.h"
#include "policy/decision.h"
#include "policy/env_patterns.h"
#include "policy/host_match.h"
#include "policy/profile_model.h"
#include "policy/session_facts.h"

namespace lash::policy {

class Engine {
 public:
  explicit Engine(std::shared_ptr<const ResolvedProfile> profile, SessionFacts facts = {});
  Decision decide(const Action& action) const;
  const ResolvedProfile& profile() const { return *profile_; }
  std::shared_ptr<const ResolvedProfile> profile_ptr() const { return profile_; }
  // KEY ("filesystem.read_only") with the file and line that set it, or base: for
  // explanations that name a key no decision of this engine returns (a read refusal).
  KeyRef where_set(const char* key) const { return ref(key); }
  const SessionFacts& facts() const { return facts_; }

 private:
  Decision spawn(const Spawn& a) const;
  Decision exec_path_script(const Spawn& a) const;
  Decision redirect(const Redirect& a) const;
  Decision env(const EnvChange& a) const;
  Decision builtin(const Builtin& a) const;
  Decision plugin(const PluginCall& a) const;
  Decision network(const NetConnect& a) const;
  Decision allow(const char* key) const;
  Decision deny(const char* key, const Action& a, std::string suggestion) const;
  KeyRef ref(const char* key) const;

  std::shared_ptr<const ResolvedProfile> profile_;
  SessionFacts facts_;
  std::unordered_set<std::string> allow_names_, allow_paths_, deny_names_, deny_paths_;
  std::vector<std::string> root_paths_;  // for messages
  EnvPatterns safelist_;
  std::unordered_set<std::string> plugins_;
  HostMatcher hosts_;
  std::string ports_text_;
  bool fs_unrestricted_ = false;
};

}  // namespace lash::policy
