// Output and test builtins: echo printf test [.
#include "builtins/families.h"
#include "builtins/printf_format.h"
#include "exec/test_eval.h"
#include "exec/session_view.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::Shell;

namespace {

// bash's echo: options -n, -e (escapes), -E (none, the default) in any group
// (-ne); a word with another letter is text.
int bash_echo(Shell& sh, std::vector<std::string>& argv) {
  size_t i = 1;
  bool newline = true, escapes = false;
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() < 2 || a[0] != '-' || a.find_first_not_of("neE", 1) != std::string::npos) break;
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k] == 'n') newline = false;
      else escapes = a[k] == 'e';
    }
  }
  auto& out = sh.out();
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (!escapes || a.find('\\') == std::string::npos) {
      out << a;
    } else {
      bool stop = false;
      set_escape_utf8(sh.chars_are_utf8());
      out << process_escapes_b(a, &stop, true);
      if (stop) return 0;
    }
    if (i + 1 < argv.size()) out << ' ';
  }
  if (newline) out << '\n';
  return 0;
}

// dash's echo (sh mode): -n is the only option; backslash escapes are always interpreted.
int bi_echo(Shell& sh, std::vector<std::string>& argv) {
  if (!sh.opt.posix) return bash_echo(sh, argv);
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

// printf -v's NAME: a variable name, or NAME[SUBSCRIPT].
bool valid_target(const std::string& v) {
  size_t lb = v.find('[');
  if (lb == std::string::npos) return syntax::is_name(v);
  return lb > 0 && v.back() == ']' && syntax::is_name(v.substr(0, lb));
}

int bi_printf(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    sh.error("printf: usage: printf format [arg ...]");
    return 2;
  }
  size_t first = 1;
  std::string var;  // bash's -v NAME: the output goes into NAME
  if (!sh.opt.posix && argv[1].compare(0, 2, "-v") == 0) {
    if (argv[1].size() > 2) {
      var = argv[1].substr(2);
      ++first;
    } else if (argv.size() > 2) {
      var = argv[2];
      first += 2;
    } else {
      sh.error("printf: -v: option requires an argument");
      return 2;
    }
    if (!valid_target(var)) {
      sh.error("printf: `" + var + "': not a valid identifier");
      return 2;
    }
  }
  if (first < argv.size() && argv[first] == "--") ++first;
  if (first >= argv.size()) {
    if (var.empty()) return 0;
    sh.error("printf: usage: printf [-v var] format [arguments]");
    return 2;
  }
  std::vector<std::string> args(argv.begin() + long(first) + 1, argv.end());
  if (!sh.opt.posix) set_escape_utf8(sh.chars_are_utf8());
  PrintfResult r = printf_format(argv[first], args, !sh.opt.posix);
  for (auto& e : r.errors) sh.error("printf: " + e);
  if (!var.empty()) {
    bool ok;
    if (size_t lb = var.find('['); lb != std::string::npos)
      ok = sh.set_element(std::string_view(var).substr(0, lb), var.substr(lb + 1, var.size() - lb - 2), std::move(r.out));
    else
      ok = sh.assign(var, std::move(r.out));
    if (!ok) return sh.vars.last_refused ? 126 : 1;
    return r.status;
  }
  sh.out() << r.out;
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
// are the plan's actions. printf -v NAME (bash) sets NAME: a change of the
// environment when NAME is exported.
exec::BuiltinEffects printf_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  if (sh.opt.posix || argv.size() < 2 || argv[1].compare(0, 2, "-v") != 0) return e;
  std::string var = argv[1].size() > 2 ? argv[1].substr(2) : (argv.size() > 2 ? argv[2] : "");
  if (size_t lb = var.find('['); lb != std::string::npos) var.resize(lb);
  if (syntax::is_name(var)) exec::add_env_action(sh, e.actions, var, policy::EnvOp::set, true);
  return e;
}

using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kIo[] = {
    {"[", bi_bracket, no_effects, K::regular, "evaluate a condition"},
    {"echo", bi_echo, no_effects, K::regular, "write arguments"},
    {"printf", bi_printf, printf_effects, K::regular, "formatted output"},
    {"test", bi_test, no_effects, K::regular, "evaluate a condition"},
};

}  // namespace

void register_io() { exec::register_builtins(kIo); }

}  // namespace lash::builtins
