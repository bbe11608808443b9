// Lives in exec, not builtins: both `test`/`[` and `[[ ]]` (exec/compound_ext.cpp)
// evaluate with it, and exec may not depend on the builtins library.
// The evaluation core of `test` / `[` (POSIX XCU test, with dash's extensions
// -a -o ( ) and the 0-4 argument rules). File tests use stat/lstat/access on the
// real filesystem through the FileQueries interface so they can be faked in tests.
#pragma once
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace lash::builtins {

struct TestResult {
  int status = 0;        // 0 true, 1 false, 2 error
  std::string error;     // message when status == 2, without the "test: " prefix
};

// args excludes the command name and, for '[', the closing ']' (checked by caller).
TestResult test_eval(const std::vector<std::string>& args);
// The same without copying: e.g. a builtin's argv minus its name (and ']').
TestResult test_eval(std::span<const std::string> args);
// With HIDDEN: a file for which it says true does not exist for the file operators
// (-e, -d, -nt, -ef ...): names the shell's session cannot see (exec/session_view.h).
TestResult test_eval(std::span<const std::string> args, const std::function<bool(const std::string&)>& hidden);

}  // namespace lash::builtins
