// The state machine of the `getopts` builtin as a pure function, following dash:
// the shell keeps (optind, optoff) between calls; the caller maps the result onto
// the variables (name, OPTARG, OPTIND) and prints the diagnostic to stderr.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace lash::builtins {

struct GetoptsState {
  int optind = 1;   // 1-based index of the next argument (the OPTIND value)
  int optoff = -1;  // position inside a group like -abc, or -1 when none
  // When the user assigns OPTIND, the caller sets optind to it and optoff to -1.
};

struct GetoptsResult {
  int status = 0;       // 0: an option was processed (even an invalid one); 1: the end
  char name = '?';      // the value for the variable: the option letter, '?' or ':'
  enum class OptArg { keep, unset, set } optarg = OptArg::keep;
  std::string optarg_value;  // when optarg == set
  int optind = 1;            // the new OPTIND value
  std::string diagnostic;    // "Illegal option -x" / "No arg for -x option", else empty
};

// One call of `getopts optstring name [args...]`; `args` are the arguments given
// to getopts, or the positional parameters.
GetoptsResult getopts_step(std::string_view optstring, const std::vector<std::string>& args,
                           GetoptsState& st);

}  // namespace lash::builtins
