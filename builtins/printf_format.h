// The formatting core of the `printf` builtin (POSIX XCU printf): the format is
// re-used until all arguments are consumed; %b, %c, %s, %d %i %o %u %x %X, %e %f %g
// %E %G (via long double), %%, flags - + space # 0, width and precision with '*';
// backslash escapes in the format (\\ \a \b \f \n \r \t \v \NNN); numeric arguments
// may be 'c / "c (character value); invalid numbers give a diagnostic and status 1
// but output continues (as dash does). \c in %b stops all output.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace lash::builtins {

struct PrintfResult {
  std::string out;
  std::vector<std::string> errors;  // messages without the "printf: " prefix
  int status = 0;                    // 0, or 1 when any error occurred
};

PrintfResult printf_format(std::string_view format, const std::vector<std::string>& args);

// The escape processing of %b and of `echo` (dash's echo interprets escapes):
// returns false in *stop if \c was seen (output ends there).
std::string process_escapes_b(std::string_view s, bool* stop);

}  // namespace lash::builtins
