// POSIX shell arithmetic ($(( )) and `let`-free contexts): 64-bit signed, every C
// operator including assignment forms, ternary and comma; decimal, octal (0NN) and
// hex (0xNN) literals; variables by name (an unset or empty variable is 0; a
// variable whose value is itself an expression is an error unless it is an integer).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lash::exec {

struct ArithVars {
  virtual ~ArithVars() = default;
  // nullptr when unset.
  virtual const std::string* get(std::string_view name) = 0;
  // Returns false (and sets *error) if the variable is read-only.
  virtual bool set(std::string_view name, int64_t value, std::string* error) = 0;
  // Bash's additions: ** , base#N, name[subscript] (then passed to get/set whole).
  bool extensions = false;
  int depth = 0;  // nesting of values evaluated as expressions
};

struct ArithResult {
  int64_t value = 0;
  std::optional<std::string> error;  // e.g. "division by zero", "syntax error: '+'"
};

// Evaluates `expr` (already parameter-expanded text). Nested depth is bounded.
ArithResult arith_eval(std::string_view expr, ArithVars& vars);

}  // namespace lash::exec
