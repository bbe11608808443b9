// Checks of single profile values (profiles.md "Validation"). Each returns the parsed or
// normalized value, or an Error whose `what` is the message shown after "FILE:LINE: key: ".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/profile_model.h"

namespace lash::policy::validate {

inline constexpr size_t kMaxProfileName = 64;

bool is_profile_name(std::string_view s);  // [A-Za-z0-9_-]{1,64}
Result<std::string> profile_name(std::string_view s);
Result<bool> boolean(std::string_view s);          // true/false yes/no on/off 1/0
Result<uint64_t> size(std::string_view s);         // N[K|M|G|T], powers of 1024
Result<uint64_t> count(std::string_view s);        // non-negative integer
Result<PortRange> port_range(std::string_view s);  // "443" or "8000-8100"
Result<std::string> path(std::string_view s);      // absolute, or "."/"~"-prefixed
Result<std::string> relative_path(std::string_view s);  // protect entries
Result<std::string> exec_path(std::string_view s);      // a path(), or "$TMPDIR" (the session tmpdir)
Result<std::string> program(std::string_view s);   // bare name or absolute path
Result<std::string> host_pattern(std::string_view s);   // normalized
Result<std::string> env_pattern(std::string_view s);    // NAME or PREFIX*
Result<std::string> env_force(std::string_view s);      // KEY=VALUE
Result<std::string> plugin_name(std::string_view s);
Result<Tmpdir> tmpdir(std::string_view s);
Result<Enforcement> enforcement(std::string_view s);
bool is_env_name(std::string_view s);

// Splits a comma-separated list, trimming items. One trailing comma is allowed (for
// values wrapped over continuation lines); other empty items are an error.
Result<std::vector<std::string>> split_list(std::string_view s);

}  // namespace lash::policy::validate
