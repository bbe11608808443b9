// Reading policy INI files (profiles, lash.conf, $LASH_HOME/config) with Debian's libinih,
// hardened for its defaults (examples.md §4): lines are counted by our own reader (no
// INI_HANDLER_LINENO), any inih error is fatal for the whole file, lines that would not
// fit inih's 200-byte buffer are refused instead of being truncated, section names are
// taken from the raw line (inih cuts them at 49 bytes), NUL bytes and files over 64 KiB
// are refused, and duplicate keys are errors. Indented lines continue the previous key
// (inih multi-line); they are kept apart so each consumer decides what they mean.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/diag.h"

namespace lash::policy {

inline constexpr size_t kMaxPolicyFile = 64 * 1024;
inline constexpr size_t kMaxLine = 200;  // Debian's INI_MAX_LINE, newline included
inline constexpr size_t kMaxKeyName = 48;  // under the 50-byte name buffer of Debian's inih

struct IniLine {
  int line = 0;
  std::string value;
};
struct IniEntry {
  std::string key;
  std::string value;
  int line = 0;
  std::vector<IniLine> continuations;  // indented lines that continue this key
};
struct IniSection {
  std::string name;  // "" for keys before any [section]
  int line = 0;      // of the first header with this name
  std::vector<IniEntry> entries;
};
struct IniDoc {
  std::string file;
  std::vector<IniSection> sections;  // in file order; repeated headers merged
  const IniSection* find(std::string_view name) const;
};

// Parses TEXT (named FILE in diagnostics). Appends to DIAGS and returns nullopt when the
// file is not well-formed.
std::optional<IniDoc> read_ini(std::string_view text, const std::string& file, Diags& diags);

// Nearest of CANDIDATES to WORD within a small edit distance, or empty.
std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace lash::policy
