// From profile text to a LoadedProfile: known sections and keys only (with a nearest-key
// suggestion for typos), every value checked. Any problem refuses the whole file.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "policy/diag.h"
#include "policy/profile_model.h"

namespace lash::policy {

struct ProfileFile {
  std::string name;
  Source source = Source::builtin;
  std::string path;  // shown in diagnostics and provenance
  std::string text;
};

// Parses and validates FILE. On failure every diagnostic is appended to DIAGS.
std::optional<LoadedProfile> parse_profile(const ProfileFile& file, Diags& diags);
// The same, as a Result whose error lists every diagnostic ("FILE:LINE: key: message").
Result<LoadedProfile> parse_profile(const ProfileFile& file);

}  // namespace lash::policy
