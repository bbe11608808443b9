// The interactive shell: prompt, read a command (more lines while the parser says it
// is incomplete, with PS2), run it, report jobs, again. Errors return to the prompt
// with $? set; ^C drops the line being typed; ^D on an empty line ends the shell
// unless `set -o ignoreeof`.
#pragma once
#include "exec/shell.h"

namespace lash::interactive {

// Runs until the user exits; never returns (ends through Shell::exit_shell).
[[noreturn]] void run_interactive(exec::Shell& sh);

}  // namespace lash::interactive
