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

// BASH adds bash's %q, %(fmt)T and escapes (\xHH \uHHHH \UHHHHHHHH \E) to format and %b.
PrintfResult printf_format(std::string_view format, const std::vector<std::string>& args, bool bash = false);

// The escape processing of %b and of `echo` (dash's echo interprets escapes):
// returns false in *stop if \c was seen (output ends there).
// Whether \u and \U escapes write UTF-8 (the shell's locale has UTF-8 characters);
// otherwise a code point above ASCII is written as the escape's text, as bash does.
void set_escape_utf8(bool on);

std::string process_escapes_b(std::string_view s, bool* stop, bool bash = false);

}  // namespace lash::builtins
