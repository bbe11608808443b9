// The engine's answer for one Action: verdict, the key that decided (with the file and
// line that set it), and for refusals the Problem/Suggestion texts of cli.md.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace lash::policy {

enum class Verdict : uint8_t { allow, deny, dynamic };
std::string_view verdict_name(Verdict v);  // "allow", "deny", "dynamic"

struct KeyRef {
  std::string key;          // "process.spawn_allowlist"; empty when no key decides
  std::string file;         // file that set it; empty: base value
  int line = 0;
  std::string via_profile;  // profile whose file set it
  std::string source_text() const;  // "FILE:LINE" or "base"
};

struct Decision {
  Verdict verdict = Verdict::deny;
  KeyRef decided_by;
  std::string problem;     // "This session (profile: ci) cannot run 'curl'."
  std::string suggestion;  // "'curl' is not in the allowlist. " (the advice on what to change is added by refusal_lines)
  // A network refusal under `[network] enforcement = warn`: record it, then allow.
  bool advisory = false;
  bool allowed() const { return verdict == Verdict::allow; }
};

}  // namespace lash::policy
