#include "policy/decision.h"

namespace lash::policy {

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::allow: return "allow";
    case Verdict::deny: return "deny";
    case Verdict::dynamic: return "dynamic";
  }
  return "?";
}

std::string KeyRef::source_text() const {
  if (file.empty()) return "base";
  if (line == 0) return file;  // not from a profile file ("this machine")
  return file + ":" + std::to_string(line);
}

}  // namespace lash::policy
