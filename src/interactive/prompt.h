// PS1 / PS2 / PS4 as an interactive shell shows them: parameter expansion first (as
// POSIX asks), then the backslash escapes of bash's prompts, so that a directory or
// host name an escape inserts is never expanded as shell text.
#pragma once
#include <string>

#include "exec/shell.h"

namespace lash::interactive {

// The default PS1: `[profile] user@host:~/dir$ `.
inline constexpr const char* kDefaultPs1 = "[\\p] \\u@\\h:\\w\\$ ";

// Escapes: \u user, \h host up to the first dot, \H host, \w working directory (~
// for $HOME), \W its last part, \$ '#' for root else '$', \t HH:MM:SS, \T 12-hour,
// \A HH:MM, \d "Tue May 26", \D{fmt} strftime, \n newline, \? last status, \j jobs,
// \p the active profile, \s shell name, \v version, \e escape, \a bell, \[ \] around
// invisible text, \\ backslash, \NNN octal. PROFILE is the active profile's name.
std::string expand_prompt(exec::Shell& sh, const std::string& text, const std::string& profile);

// Only the backslash escapes (no expansion): for tests and for PS4.
std::string prompt_escapes(exec::Shell& sh, const std::string& text, const std::string& profile);

}  // namespace lash::interactive
