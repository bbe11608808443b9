// The shared core of declare/typeset and the bash forms of local, readonly, export.
#pragma once
#include <string>
#include <vector>

#include "exec/shell.h"

namespace lash::builtins {
enum class DeclMode { declare, local, readonly, exported };
int declare_impl(exec::Shell& sh, std::vector<std::string>& argv, DeclMode mode);
// Whether ARGV (local/readonly/export) uses a form only declare_impl handles:
// options other than -p, name=(...), name[i]=, name+=.
bool needs_declare(const std::vector<std::string>& argv);
}  // namespace lash::builtins
