// Tab completion. In command position: builtins, functions, aliases, then the
// programs on PATH - under a profile with spawn_any = false only those its engine
// allows (a refused program is not offered) - and paths with a slash. After `$`:
// variable names. `profile <TAB>`: its subcommands, then profile names. Elsewhere:
// files (directories with a trailing slash).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "exec/shell.h"

namespace lash::interactive {

// Candidates for the word at [start, end) of LINE, sorted, without duplicates.
std::vector<std::string> complete(exec::Shell& sh, std::string_view line, size_t start, size_t end);

// Whether running NAME as a command would be refused by the active profile (for the
// red highlight): a program the engine refuses; a builtin, function or alias never.
bool command_refused(exec::Shell& sh, std::string_view name);

}  // namespace lash::interactive
