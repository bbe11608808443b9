// Variable builtins: export readonly unset set shift local read getopts.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/strutil.h"
#include "builtins/families.h"
#include "builtins/getopts_core.h"
#include "exec/options.h"
#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::FatalError;
using exec::Shell;
using exec::Var;

namespace {

// export/readonly: NAME[=VALUE]... or -p / no operands to list.
int mark_vars(Shell& sh, std::vector<std::string>& argv, uint8_t flag, const char* word) {
  size_t i = 1;
  bool print = false;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-p") {
      print = true;
      continue;
    }
    throw FatalError{std::string(word) + ": Illegal option " + argv[i], 2};
  }
  if (i >= argv.size()) {
    (void)print;
    for (auto& n : sh.vars.names()) {
      const Var* v = sh.vars.find(n);
      if (!v || !(v->flags & flag)) continue;
      sh.out() << word << ' ' << n;
      if (v->is_set()) sh.out() << '=' << str::quote_always(v->value);
      sh.out() << '\n';
    }
    return 0;
  }
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    auto eq = a.find('=');
    std::string name = a.substr(0, eq);
    if (!syntax::is_name(name)) throw FatalError{std::string(word) + ": " + name + ": bad variable name", 2};
    if (eq != std::string::npos) {
      if (!sh.vars.set(name, a.substr(eq + 1))) {
        if (sh.vars.last_refused) throw exec::Refused{};
        throw FatalError{name + ": is read only", 2};
      }
    }
    if (!sh.vars.set_flag(name, flag)) throw exec::Refused{};
  }
  return 0;
}

int bi_export(Shell& sh, std::vector<std::string>& argv) { return mark_vars(sh, argv, Var::exported, "export"); }
int bi_readonly(Shell& sh, std::vector<std::string>& argv) { return mark_vars(sh, argv, Var::readonly, "readonly"); }

int bi_unset(Shell& sh, std::vector<std::string>& argv) {
  bool funcs = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-f")
      funcs = true;
    else if (argv[i] == "-v")
      funcs = false;
    else
      throw FatalError{"unset: Illegal option " + argv[i], 2};
  }
  for (; i < argv.size(); ++i) {
    if (funcs) {
      sh.functions.erase(argv[i]);
      continue;
    }
    if (!syntax::is_name(argv[i])) throw FatalError{"unset: " + argv[i] + ": bad variable name", 2};
    if (!sh.vars.unset(argv[i])) {
      if (sh.vars.last_refused) throw exec::Refused{};
      throw FatalError{"unset: " + argv[i] + ": is read only", 2};
    }
  }
  return 0;
}

int bi_set(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() == 1) {
    for (auto& n : sh.vars.names()) {
      const Var* v = sh.vars.find(n);
      if (!v || !v->is_set()) continue;
      sh.out() << n << '=' << str::quote_always(v->value) << '\n';
    }
    return 0;
  }
  size_t i = 1;
  bool set_params = false;
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      set_params = true;
      break;
    }
    if (a == "-" ) {
      sh.opt.xtrace = sh.opt.verbose = false;
      ++i;
      set_params = i < argv.size();
      break;
    }
    if (a.size() < 2 || (a[0] != '-' && a[0] != '+')) break;
    bool on = a[0] == '-';
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k] == 'o') {
        if (i + 1 >= argv.size()) {
          sh.out() << exec::list_options(sh, !on);
          continue;
        }
        const std::string& name = argv[++i];
        if (!exec::set_long_option(sh, name, on)) throw FatalError{"set: Illegal option -o " + name, 2};
        continue;
      }
      if (!exec::set_short_option(sh, a[k], on))
        throw FatalError{std::string("set: Illegal option ") + a[0] + a[k], 2};
    }
  }
  if (i < argv.size() || set_params) sh.params.assign(argv.begin() + long(i), argv.end());
  return 0;
}

int bi_shift(Shell& sh, std::vector<std::string>& argv) {
  size_t n = 1;
  if (argv.size() > 1) {
    auto v = str::parse_int(argv[1]);
    if (!v || *v < 0) throw FatalError{"shift: Illegal number: " + argv[1], 2};
    n = size_t(*v);
  }
  if (n > sh.params.size()) throw FatalError{"shift: can't shift that many", 2};
  sh.params.erase(sh.params.begin(), sh.params.begin() + long(n));
  return 0;
}

int bi_local(Shell& sh, std::vector<std::string>& argv) {
  if (!sh.vars.in_scope() || sh.call_depth == 0) throw FatalError{"local: not in a function", 2};
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    auto eq = a.find('=');
    std::string name = a.substr(0, eq);
    if (name == "-") {
      // dash's `local -`: the options are restored when the function returns.
      sh.save_options_for_frame();
      continue;
    }
    if (!syntax::is_name(name)) throw FatalError{"local: " + name + ": bad variable name", 2};
    sh.vars.make_local(name);
    if (eq != std::string::npos && !sh.vars.set(name, a.substr(eq + 1))) {
      if (sh.vars.last_refused) throw exec::Refused{};
      throw FatalError{name + ": is read only", 2};
    }
  }
  return 0;
}

// ---- read -----------------------------------------------------------------------

bool is_ifs_ws(char c, const std::string& ifs) {
  return (c == ' ' || c == '\t' || c == '\n') && ifs.find(c) != std::string::npos;
}

int bi_read(Shell& sh, std::vector<std::string>& argv) {
  bool raw = false;
  size_t i = 1;
  std::string prompt;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (size_t k = 1; k < argv[i].size(); ++k) {
      char c = argv[i][k];
      if (c == 'r') {
        raw = true;
      } else if (c == 'p') {
        if (i + 1 >= argv.size()) {
          sh.error("read: No arg for -p option");
          return 2;
        }
        prompt = argv[++i];
        break;
      } else {
        sh.error(std::string("read: Illegal option -") + c);
        return 2;
      }
    }
  }
  std::vector<std::string> names(argv.begin() + long(i), argv.end());
  if (names.empty()) {
    sh.error("read: arg count");
    return 2;
  }
  for (auto& n : names)
    if (!syntax::is_name(n)) {
      sh.error("read: " + n + ": bad variable name");
      return 2;
    }
  if (!prompt.empty() && ::isatty(0)) exec::write_all(2, prompt);

  // Read one logical line byte by byte (never past the newline). `esc` marks
  // characters protected by a backslash (not field separators).
  std::string line;
  std::vector<bool> esc;
  bool eof = false;
  for (;;) {
    char c;
    ssize_t n = ::read(0, &c, 1);
    if (n < 0 && errno == EINTR) {
      if (exec::g_pending_any) {
        sh.run_pending_traps();
        return 128 + 2;
      }
      continue;
    }
    if (n < 0) {
      sh.error(std::string("read: read error: ") + std::strerror(errno));
      return 2;
    }
    if (n == 0) {
      eof = true;
      break;
    }
    if (c == '\n') break;
    if (c == '\\' && !raw) {
      char d;
      ssize_t m;
      do m = ::read(0, &d, 1);
      while (m < 0 && errno == EINTR);
      if (m <= 0) {
        eof = true;
        break;
      }
      if (d == '\n') continue;  // line continuation
      line.push_back(d);
      esc.push_back(true);
      continue;
    }
    line.push_back(c);
    esc.push_back(false);
  }

  const std::string* ifsp = sh.vars.get("IFS");
  std::string ifs = ifsp ? *ifsp : " \t\n";
  auto is_ifs = [&](size_t k) { return !esc[k] && ifs.find(line[k]) != std::string::npos; };
  auto is_ws = [&](size_t k) { return !esc[k] && is_ifs_ws(line[k], ifs); };
  size_t pos = 0, len = line.size();
  while (pos < len && is_ws(pos)) ++pos;
  for (size_t v = 0; v < names.size(); ++v) {
    std::string value;
    if (v + 1 < names.size()) {
      while (pos < len && !is_ifs(pos)) value.push_back(line[pos++]);
      // Skip one delimiter: IFS white space around at most one other IFS character.
      while (pos < len && is_ws(pos)) ++pos;
      if (pos < len && is_ifs(pos) && !is_ws(pos)) {
        ++pos;
        while (pos < len && is_ws(pos)) ++pos;
      }
    } else {
      size_t end = len;
      while (end > pos && is_ws(end - 1)) --end;
      // A single trailing non-white-space delimiter after the last field is dropped.
      if (end > pos && is_ifs(end - 1) && !is_ws(end - 1)) {
        bool other = false;
        for (size_t k = pos; k + 1 < end; ++k)
          if (is_ifs(k)) other = true;
        if (!other) {
          --end;
          while (end > pos && is_ws(end - 1)) --end;
        }
      }
      value.assign(line, pos, end - pos);
      pos = len;
    }
    if (!sh.vars.set(names[v], std::move(value))) {
      if (sh.vars.last_refused) return 126;
      sh.error("read: " + names[v] + ": is read only");
      return 2;
    }
  }
  return eof ? 1 : 0;
}

// ---- getopts --------------------------------------------------------------------

int bi_getopts(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 3) {
    sh.error("getopts: usage: getopts optstring var [arg...]");
    return 2;
  }
  const std::string& var = argv[2];
  if (!syntax::is_name(var)) {
    sh.error("getopts: " + var + ": bad variable name");
    return 2;
  }
  std::vector<std::string> own;
  const std::vector<std::string>* args = &sh.params;
  if (argv.size() > 3) {
    own.assign(argv.begin() + 3, argv.end());
    args = &own;
  }
  // The position inside an option group (-abc) lives next to OPTIND, as in dash;
  // any OPTIND value other than the one stored last (an assignment) resets it.
  static GetoptsState state;
  static std::string last_optind = "1";
  const std::string* oi = sh.vars.get("OPTIND");
  const std::string cur = oi ? *oi : std::string();
  if (cur != last_optind) {
    auto n = str::parse_int(cur);
    state.optind = n && *n > 0 && *n < 1000000000 ? int(*n) : 1;
    state.optoff = -1;
  }
  GetoptsResult r = getopts_step(argv[1], *args, state);
  if (!r.diagnostic.empty()) sh.err() << r.diagnostic << '\n';
  if (r.optarg == GetoptsResult::OptArg::set)
    sh.vars.set("OPTARG", r.optarg_value);
  else if (r.optarg == GetoptsResult::OptArg::unset)
    sh.vars.unset("OPTARG");
  last_optind = std::to_string(r.optind);
  sh.vars.set("OPTIND", last_optind);
  sh.vars.set(var, std::string(1, r.name));
  return r.status;
}

constexpr exec::BuiltinDef kVars[] = {
    {"export", bi_export, exec::BuiltinKind::special, "", "export variables to commands"},
    {"getopts", bi_getopts, exec::BuiltinKind::regular, "", "parse options"},
    {"local", bi_local, exec::BuiltinKind::regular, "", "function-local variables"},
    {"read", bi_read, exec::BuiltinKind::regular, "", "read a line into variables"},
    {"readonly", bi_readonly, exec::BuiltinKind::special, "", "make variables read-only"},
    {"set", bi_set, exec::BuiltinKind::special, "", "options and positional parameters"},
    {"shift", bi_shift, exec::BuiltinKind::special, "", "shift positional parameters"},
    {"unset", bi_unset, exec::BuiltinKind::special, "", "remove variables or functions"},
};

}  // namespace

void register_vars() { exec::register_builtins(kVars); }

}  // namespace lash::builtins
