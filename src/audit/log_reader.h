// Reading the audit log for the `audit` builtin: `audit tail [N]`, `audit search WORD`.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace lash::audit {

// The last N lines (without newlines), oldest first. Reads backwards from the end, so
// the cost does not grow with the size of the log. A missing log is an empty result.
Result<std::vector<std::string>> tail(const std::string& path, size_t n);
// Every line containing WORD (case-insensitive, bytes), oldest first.
Result<std::vector<std::string>> search(const std::string& path, std::string_view word);
// One line of text for a JSON record line: "TIME PROFILE DECISION KIND TARGET [KEY]"
// followed by the problem for refusals; a line that is not JSON is returned as is.
std::string render_text(const std::string& line);

}  // namespace lash::audit
