// The argument rules of the `umask` builtin, as dash has them: octal masks of any
// length, and symbolic modes ("u=rwx,g+r-w,o=", "a+X", "g=u") applied to the
// permissions the current mask allows.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace lash::builtins {

// Octal digits only (at least one); the value is reduced to 0777 like umask(2).
// nullopt: dash's "Illegal number".
std::optional<mode_t> umask_parse_octal(std::string_view spec);

// The new mask after applying a symbolic `spec` to `current` (a mask).
// nullopt: dash's "Illegal mode".
std::optional<mode_t> umask_apply_symbolic(std::string_view spec, mode_t current);

// `umask -S` output without the newline: "u=rwx,g=rx,o=rx".
std::string umask_symbolic_text(mode_t mask);

}  // namespace lash::builtins
