// Small string helpers with no lash types.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::str {

std::string_view trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
// PATH's non-empty components ("a//b/" is a, b), put in front of TODO in order: what a
// component-by-component path walk resolves next (symlink targets go in front).
void push_path_components(std::deque<std::string>& todo, std::string_view path);
bool starts_with(std::string_view s, std::string_view prefix);
// Strict decimal parse of a whole string (optional leading sign); nullopt on any junk/overflow.
std::optional<int64_t> parse_int(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b);
// Quote a string for re-input to a POSIX shell ('...' with '\'' for quotes).
std::string shell_quote(std::string_view s);
// Always single-quoted, ' written as '"'"' (the form dash uses for `set`, `export -p`,
// `alias` and `trap` listings, which scripts parse back).
std::string quote_always(std::string_view s);

}  // namespace lash::str
