// Output and test builtins: echo printf test [.
#include "builtins/families.h"
#include "builtins/printf_format.h"
#include "exec/test_eval.h"
#include "exec/session_view.h"
#include "exec/shell.h"

namespace lash::builtins {
using exec::Shell;

namespace {

// dash's echo: -n is the only option; backslash escapes are always interpreted.
int bi_echo(Shell& sh, std::vector<std::string>& argv) {
  size_t i = 1;
  bool newline = true;
  if (i < argv.size() && argv[i] == "-n") {
    newline = false;
    ++i;
  }
  auto& out = sh.out();
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.find('\\') == std::string::npos) {
      out << a;
    } else {
      bool stop = false;
      out << process_escapes_b(a, &stop);
      if (stop) return 0;
    }
    if (i + 1 < argv.size()) out << ' ';
  }
  if (newline) out << '\n';
  return 0;
}

int bi_printf(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    sh.error("printf: usage: printf format [arg ...]");
    return 2;
  }
  size_t first = 1;
  if (argv[1] == "--") {
    ++first;
    if (argv.size() < 3) return 0;
  }
  std::vector<std::string> args(argv.begin() + long(first) + 1, argv.end());
  PrintfResult r = printf_format(argv[first], args);
  sh.out() << r.out;
  for (auto& e : r.errors) sh.error("printf: " + e);
  return r.status;
}

int run_test(Shell& sh, std::vector<std::string>& argv, bool bracket) {
  // A view of the operands: no copy on the hot path of `while [ ... ]`.
  std::span<const std::string> args = std::span<const std::string>(argv).subspan(1);
  if (bracket) {
    if (args.empty() || args.back() != "]") {
      sh.error("[: missing ]");
      return 2;
    }
    args = args.first(args.size() - 1);
  }
  // In a sandboxed session, a name the session cannot see does not exist for -e, -d...
  TestResult r = exec::view_is_confined(sh)
                     ? test_eval(args, [&sh](const std::string& p) { return exec::view_hides(sh, p); })
                     : test_eval(args);
  if (r.status == 2) sh.error(std::string(bracket ? "[: " : "test: ") + r.error);
  return r.status;
}

int bi_test(Shell& sh, std::vector<std::string>& argv) { return run_test(sh, argv, false); }
int bi_bracket(Shell& sh, std::vector<std::string>& argv) { return run_test(sh, argv, true); }

// Output and tests: they write to the shell's own stdout/stderr, whose redirections
// are the plan's actions. printf has no -v (it would be a format here).
using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kIo[] = {
    {"[", bi_bracket, no_effects, K::regular, "evaluate a condition"},
    {"echo", bi_echo, no_effects, K::regular, "write arguments"},
    {"printf", bi_printf, no_effects, K::regular, "formatted output"},
    {"test", bi_test, no_effects, K::regular, "evaluate a condition"},
};

}  // namespace

void register_io() { exec::register_builtins(kIo); }

}  // namespace lash::builtins
