// Shell pattern matching (POSIX 2.13) for case, ${x%p}/${x#p} and pathname
// expansion. A pattern is a string in which a backslash makes the next character
// literal: the expander escapes every quoted character this way, so "*" quoted
// never matches more than a star.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::exec {

// Whole-string match. Supports * ? [...] with ranges, '!' negation ('^' is literal, as in dash), and
// character classes [[:alpha:]] etc. in the C locale. An unmatched '[' is literal.
// When `pathname` is true, '/' is only matched literally and a leading '.' of the
// text is only matched by a literal '.' (pathname expansion rules).
bool pattern_match(std::string_view pattern, std::string_view text, bool pathname = false);

// Whether '^' after '[' negates a bracket expression as '!' does. bash (also bash
// --posix) says yes, dash says no (POSIX leaves it unspecified): on in lash's own
// mode, off in POSIX mode, where dash is the reference. Set with the posix option.
extern bool pattern_caret_negates;

// bash's extglob (shopt -s extglob): ?(p|q) *(p|q) +(p|q) @(p|q) !(p|q) groups,
// nested and holding any pattern, are understood by every function here.
extern bool pattern_extglob;

// True if the pattern holds an unescaped extglob group opener ("@(" etc.).
bool has_extglob(std::string_view pattern);

// A copy with ASCII letters lowered (shopt nocasematch, nocaseglob).
std::string ascii_lower(std::string_view s);

// True if the pattern contains an unescaped * ? or [ (i.e. pathname expansion applies).
bool has_glob_chars(std::string_view pattern);

// Removes the pattern's escapes: "a\*b" -> "a*b".
std::string pattern_unescape(std::string_view pattern);

enum class TrimKind { small_suffix, large_suffix, small_prefix, large_prefix };
// ${x%p} ${x%%p} ${x#p} ${x##p}: returns the text with the matching part removed.
std::string pattern_trim(std::string_view text, std::string_view pattern, TrimKind kind);

// Pathname expansion of one pattern. Reads directories through `list_dir`, which
// returns the entry names of a directory (without . and ..), or false if it cannot
// be read. Results are sorted by byte value (C locale). An empty result means no
// match (the caller then keeps the word as it was).
using ListDir = std::function<bool(const std::string& dir, std::vector<std::string>& names)>;
std::vector<std::string> glob_expand(std::string_view pattern, const ListDir& list_dir);

// Components without glob characters are not read: they are checked with
// `exists` (lstat semantics; a trailing '/' asks for a directory) when they end the
// pattern, and implicitly by listing them otherwise. The two-argument form uses
// path_exists_direct. A pattern without glob characters gives an empty result.
using PathExists = std::function<bool(const std::string& path)>;
// bash's shopt options for pathname expansion (all off: POSIX).
struct GlobOptions {
  bool dotglob = false;   // a leading '.' is matched by * ? [ too
  bool nocase = false;    // letters match either case
  bool globstar = false;  // a component "**" matches any number of directories
};
std::vector<std::string> glob_expand(std::string_view pattern, const ListDir& list_dir,
                                     const PathExists& exists, const GlobOptions& opts = {});

// The default PathExists: lstat(path) succeeds.
bool path_exists_direct(const std::string& path);

// The default ListDir: opendir/readdir.
bool list_dir_direct(const std::string& dir, std::vector<std::string>& names);

}  // namespace lash::exec
