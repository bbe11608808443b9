// Variable builtins: export readonly unset set shift local read getopts.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/strutil.h"
#include "builtins/declare.h"
#include "builtins/families.h"
#include "builtins/getopts_core.h"
#include "exec/idle_timeout.h"
#include "exec/job_control.h"
#include "exec/options.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::FatalError;
using exec::Shell;
using exec::Var;

namespace {

// Options of export/readonly (the builtin and its effects parse them here): `-p`
// and `--`; anything else is an illegal option, named in `bad`.
struct MarkArgs {
  size_t first = 1;  // first NAME[=VALUE] operand
  std::string bad;
};
MarkArgs parse_mark_args(const std::vector<std::string>& argv) {
  MarkArgs m;
  size_t& i = m.first;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-p") continue;  // print: the same as no operands
    m.bad = argv[i];
    break;
  }
  return m;
}

// export/readonly: NAME[=VALUE]... or -p / no operands to list.
int mark_vars(Shell& sh, std::vector<std::string>& argv, uint8_t flag, const char* word) {
  MarkArgs m = parse_mark_args(argv);
  if (!m.bad.empty()) throw FatalError{std::string(word) + ": Illegal option " + m.bad, 2};
  size_t i = m.first;
  if (i >= argv.size()) {
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

int bi_export(Shell& sh, std::vector<std::string>& argv) {
  if (!sh.opt.posix && needs_declare(argv)) return declare_impl(sh, argv, DeclMode::exported);
  return mark_vars(sh, argv, Var::exported, "export");
}
int bi_readonly(Shell& sh, std::vector<std::string>& argv) {
  if (!sh.opt.posix && needs_declare(argv)) return declare_impl(sh, argv, DeclMode::readonly);
  return mark_vars(sh, argv, Var::readonly, "readonly");
}

// The operands mark_vars changes, in its order, up to the first bad name (where it
// stops with an error). export: every NAME is exported (an action whatever it was);
// readonly: a NAME=VALUE is set first, then made read-only, each an action only for
// an exported variable.
exec::BuiltinEffects mark_effects(Shell& sh, const std::vector<std::string>& argv, bool is_export) {
  exec::BuiltinEffects e;
  e.walk.operands_are_variables = true;
  e.walk.operand_op = is_export ? policy::EnvOp::export_var : policy::EnvOp::readonly;
  MarkArgs m = parse_mark_args(argv);
  if (!m.bad.empty()) return e;
  for (size_t i = m.first; i < argv.size(); ++i) {
    auto eq = argv[i].find('=');
    std::string name = argv[i].substr(0, eq);
    if (!syntax::is_name(name)) break;
    if (is_export) {
      exec::add_env_action(sh, e.actions, name, policy::EnvOp::export_var, false);
      continue;
    }
    if (eq != std::string::npos) exec::add_env_action(sh, e.actions, name, policy::EnvOp::set, true);
    exec::add_env_action(sh, e.actions, name, policy::EnvOp::readonly, true);
  }
  return e;
}
exec::BuiltinEffects export_effects(Shell& sh, const std::vector<std::string>& argv) {
  return mark_effects(sh, argv, true);
}
exec::BuiltinEffects readonly_effects(Shell& sh, const std::vector<std::string>& argv) {
  return mark_effects(sh, argv, false);
}

// Options of unset: -f (functions) and -v (variables), the last one wins; `--`.
struct UnsetArgs {
  size_t first = 1;
  bool funcs = false;
  std::string bad;  // an illegal option
};
UnsetArgs parse_unset_args(const std::vector<std::string>& argv) {
  UnsetArgs u;
  size_t& i = u.first;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-f") {
      u.funcs = true;
    } else if (argv[i] == "-v") {
      u.funcs = false;
    } else {
      u.bad = argv[i];
      break;
    }
  }
  return u;
}

int bi_unset(Shell& sh, std::vector<std::string>& argv) {
  UnsetArgs u = parse_unset_args(argv);
  if (!u.bad.empty()) throw FatalError{"unset: Illegal option " + u.bad, 2};
  bool funcs = u.funcs;
  size_t i = u.first;
  for (; i < argv.size(); ++i) {
    if (funcs) {
      sh.functions.erase(argv[i]);
      continue;
    }
    if (size_t lb = argv[i].find('['); !sh.opt.posix && lb != std::string::npos && argv[i].back() == ']' &&
                                        syntax::is_name(argv[i].substr(0, lb))) {
      // unset 'a[i]': one element (bash).
      if (!sh.unset_element(argv[i].substr(0, lb), argv[i].substr(lb + 1, argv[i].size() - lb - 2))) {
        if (sh.vars.last_refused) throw exec::Refused{};
        throw FatalError{"unset: " + argv[i] + ": is read only", 2};
      }
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

// unset NAME...: each exported variable up to the first bad name is an action;
// unset -f NAME... removes functions (a program of that name may run again).
exec::BuiltinEffects unset_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  UnsetArgs u = parse_unset_args(argv);
  if (!u.bad.empty()) return e;
  if (u.funcs) {
    e.walk.functions_removed.assign(argv.begin() + long(u.first), argv.end());
    return e;
  }
  e.walk.operands_are_variables = true;
  e.walk.operand_op = policy::EnvOp::unset;
  for (size_t i = u.first; i < argv.size() && syntax::is_name(argv[i]); ++i)
    exec::add_env_action(sh, e.actions, argv[i], policy::EnvOp::unset, true);
  return e;
}

// The arguments of set, in order: option letters (-e, +x), long options (-o NAME),
// a bare -o/+o (list the options); then where the positional parameters start.
struct SetArgs {
  struct Op {
    char letter = 0;  // 'o' for a long option
    bool on = true;
    std::string name;  // the long option
    bool list = false;  // -o / +o without a name: print the options
  };
  std::vector<Op> ops;
  size_t params_from = 0;
  bool set_params = false;
  bool dash = false;  // a lone `-`: xtrace and verbose off
};
SetArgs parse_set_args(const std::vector<std::string>& argv) {
  SetArgs s;
  size_t i = 1;
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      s.set_params = true;
      break;
    }
    if (a == "-") {
      s.dash = true;
      ++i;
      s.set_params = i < argv.size();
      break;
    }
    if (a.size() < 2 || (a[0] != '-' && a[0] != '+')) break;
    bool on = a[0] == '-';
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k] == 'o') {
        if (i + 1 >= argv.size()) s.ops.push_back({'o', on, {}, true});
        else s.ops.push_back({'o', on, argv[++i], false});
        continue;
      }
      s.ops.push_back({a[k], on, {}, false});
    }
  }
  s.params_from = i;
  return s;
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
  SetArgs parsed = parse_set_args(argv);
  for (const auto& op : parsed.ops) {
    if (op.list) {
      sh.out() << exec::list_options(sh, !op.on);
    } else if (op.letter == 'o') {
      if (!exec::set_long_option(sh, op.name, op.on)) throw FatalError{"set: Illegal option -o " + op.name, 2};
    } else if (!exec::set_short_option(sh, op.letter, op.on)) {
      throw FatalError{std::string("set: Illegal option ") + (op.on ? '-' : '+') + op.letter, 2};
    }
  }
  if (parsed.dash) sh.opt.xtrace = sh.opt.verbose = false;
  size_t i = parsed.params_from;
  bool set_params = parsed.set_params;
  if (i < argv.size() || set_params) sh.params.assign(argv.begin() + long(i), argv.end());
  return 0;
}

// set changes no exported variable itself; `set -a` makes every later assignment an
// export, which the dry run follows (a `set +a` it does not: it may be on a branch
// that does not run). Options that come from an expansion may hold -a.
exec::BuiltinEffects set_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  if (sh.dry && sh.dry_dynamic) e.walk.allexport = true;
  for (const auto& op : parse_set_args(argv).ops)
    if (op.on && (op.letter == 'a' || (op.letter == 'o' && op.name == "allexport"))) e.walk.allexport = true;
  return e;
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
  if (!sh.opt.posix && needs_declare(argv)) return declare_impl(sh, argv, DeclMode::local);
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

// local NAME=VALUE sets NAME (an action when it is exported); a bare NAME or `-`
// changes no value. Stops at the first bad name, as bi_local.
exec::BuiltinEffects local_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.walk.operands_are_variables = true;
  for (size_t i = 1; i < argv.size(); ++i) {
    auto eq = argv[i].find('=');
    std::string name = argv[i].substr(0, eq);
    if (name == "-") continue;
    if (!syntax::is_name(name)) break;
    if (eq != std::string::npos) exec::add_env_action(sh, e.actions, name, policy::EnvOp::set, true);
  }
  return e;
}

// ---- read -----------------------------------------------------------------------

bool is_ifs_ws(char c, const std::string& ifs) {
  return (c == ' ' || c == '\t' || c == '\n') && ifs.find(c) != std::string::npos;
}

// read's arguments, for bi_read and read_effects: -r, -p PROMPT (in a group like
// -rp the next word is the prompt), bash's -a NAME, -d DELIM, -n N, -N N, -s, -t
// SECONDS, -u FD (an option's value may be attached: -d:, -n1), `--`, then the
// NAMEs (bash: none means REPLY). `error` is the message of a usage error, after
// which read reads and assigns nothing.
struct ReadArgs {
  bool raw = false;
  std::string prompt;
  std::vector<std::string> names;
  std::string array;  // -a NAME (bash): every field into an indexed array
  char delim = '\n';
  long nchars = -1;      // -n: at most this many characters
  bool exact = false;    // -N: exactly nchars, no delimiter, no splitting
  bool silent = false;   // -s: no echo on a terminal
  double timeout = -1;   // -t
  int fd = 0;            // -u
  std::string error;
};
ReadArgs parse_read_args(const std::vector<std::string>& argv, bool posix) {
  ReadArgs r;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (size_t k = 1; k < argv[i].size(); ++k) {
      char c = argv[i][k];
      if (c == 'r') {
        r.raw = true;
        continue;
      }
      if (c == 's' && !posix) {
        r.silent = true;
        continue;
      }
      bool takes = c == 'p' || (!posix && (c == 'a' || c == 'd' || c == 'n' || c == 'N' || c == 't' || c == 'u'));
      if (!takes) {
        r.error = std::string("read: Illegal option -") + c;
        return r;
      }
      std::string val;
      if (k + 1 < argv[i].size()) {
        val = argv[i].substr(k + 1);
      } else if (i + 1 < argv.size()) {
        val = argv[++i];
      } else {
        r.error = std::string("read: No arg for -") + c + " option";
        return r;
      }
      auto number = [&](long& out) {
        auto v = str::parse_int(val);
        if (!v || *v < 0) {
          r.error = "read: " + val + ": invalid " + (c == 'u' ? "file descriptor specification" : "number");
          return false;
        }
        out = long(*v);
        return true;
      };
      long n = 0;
      switch (c) {
        case 'p': r.prompt = val; break;
        case 'a': r.array = val; break;
        case 'd': r.delim = val.empty() ? '\0' : val[0]; break;
        case 'n':
        case 'N':
          if (!number(n)) return r;
          r.nchars = n;
          r.exact = c == 'N';
          break;
        case 'u':
          if (!number(n)) return r;
          r.fd = int(n);
          break;
        case 't': {
          char* end = nullptr;
          r.timeout = std::strtod(val.c_str(), &end);
          if (val.empty() || *end || r.timeout < 0) {
            r.error = "read: " + val + ": invalid timeout specification";
            return r;
          }
          break;
        }
        default: break;
      }
      break;  // the value ended this word
    }
  }
  r.names.assign(argv.begin() + long(i), argv.end());
  if (r.names.empty() && r.array.empty()) {
    if (posix) r.error = "read: arg count";
    else r.names.push_back("REPLY");
  }
  for (auto& n : r.names)
    if (r.error.empty() && !syntax::is_name(n)) r.error = "read: `" + n + "': not a valid identifier";
  return r;
}

// read NAME...: each NAME is assigned (an action when it is exported), never the prompt.
exec::BuiltinEffects read_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.walk.operands_are_variables = true;
  ReadArgs r = parse_read_args(argv, sh.opt.posix);
  if (!r.error.empty()) return e;
  for (const auto& n : r.names) exec::add_env_action(sh, e.actions, n, policy::EnvOp::set, true);
  return e;
}

// Waits until FD has input or SECONDS pass: 1 ready, 0 timed out, -1 interrupted.
int wait_readable(int fd, double seconds) {
  struct pollfd p {fd, POLLIN, 0};
  int ms = seconds > 2e6 ? 2000000000 : int(seconds * 1000);
  int n = ::poll(&p, 1, ms);
  return n < 0 ? -1 : (n > 0 ? 1 : 0);
}

// Turns off echo on a terminal for `read -s`, and back on when it ends.
struct EchoOff {
  int fd = -1;
  struct termios saved {};
  explicit EchoOff(int f) {
    if (!::isatty(f) || ::tcgetattr(f, &saved) != 0) return;
    struct termios t = saved;
    t.c_lflag &= ~tcflag_t(ECHO);
    if (::tcsetattr(f, TCSANOW, &t) == 0) fd = f;
  }
  void restore() {
    if (fd >= 0) ::tcsetattr(fd, TCSANOW, &saved);
    fd = -1;
  }
  ~EchoOff() { restore(); }
};

int bi_read(Shell& sh, std::vector<std::string>& argv) {
  ReadArgs parsed = parse_read_args(argv, sh.opt.posix);
  if (!parsed.error.empty()) {
    sh.error(parsed.error);
    return 2;
  }
  const bool raw = parsed.raw;
  const std::string& prompt = parsed.prompt;
  const std::vector<std::string>& names = parsed.names;
  const int fd = parsed.fd;
  if (fd != 0 && ::fcntl(fd, F_GETFD) < 0) {
    sh.error("read: " + std::to_string(fd) + ": invalid file descriptor: Bad file descriptor");
    return 1;
  }
  if (!prompt.empty() && ::isatty(fd)) exec::write_all(2, prompt);
  EchoOff echo_off(parsed.silent ? fd : -1);
  if (parsed.timeout == 0) return wait_readable(fd, 0) == 1 ? 0 : 1;  // -t 0: is input there?
  // TMOUT is read's default timeout (bash). An interactive shell reading the terminal
  // also has the profile's idle_timeout, which no -t or TMOUT raises: when it passes,
  // the login ends as it does at the prompt (a subshell hangs up the main shell).
  if (parsed.timeout < 0 && !sh.opt.posix) {
    if (const std::string* t = sh.vars.get("TMOUT")) {
      auto n = str::parse_int(*t);
      if (n && *n > 0) parsed.timeout = double(*n);
    }
  }
  int idle_limit = sh.opt.interactive && ::isatty(fd) ? exec::profile_idle_timeout() : 0;
  bool idle_logout = false;
  if (idle_limit > 0 && (parsed.timeout < 0 || parsed.timeout > double(idle_limit))) {
    parsed.timeout = double(idle_limit);
    idle_logout = true;
  }
  struct timespec start {};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  bool timed_out = false;
  // One byte, honouring -t: 1 read, 0 end of input, -1 error (errno), -2 timed out.
  auto read_byte = [&](char& c) -> ssize_t {
    if (parsed.timeout > 0) {
      struct timespec now {};
      ::clock_gettime(CLOCK_MONOTONIC, &now);
      double left = parsed.timeout - double(now.tv_sec - start.tv_sec) - double(now.tv_nsec - start.tv_nsec) / 1e9;
      if (left <= 0) return -2;
      int w = wait_readable(fd, left);
      if (w == 0) return -2;
      if (w < 0) {
        errno = EINTR;
        return -1;
      }
    }
    return ::read(fd, &c, 1);
  };

  // Read one logical line byte by byte (never past the delimiter). `esc` marks
  // characters protected by a backslash (not field separators).
  std::string line;
  std::vector<bool> esc;
  bool eof = false;
  const char delim = parsed.exact ? '\xff' : parsed.delim;
  const bool no_delim = parsed.exact;
  for (;;) {
    if (parsed.nchars >= 0 && long(line.size()) >= parsed.nchars) break;
    char c;
    ssize_t n = read_byte(c);
    if (n == -2) {
      timed_out = true;
      break;
    }
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
    if (!no_delim && c == delim) break;
    if (c == '\\' && !raw && !no_delim) {
      char d;
      ssize_t m;
      do m = read_byte(d);
      while (m == -1 && errno == EINTR);
      if (m <= 0) {
        eof = true;
        break;
      }
      if (d == '\n') continue;  // line continuation
      line.push_back(d);
      esc.push_back(true);
      continue;
    }
    if (c == '\0' && !sh.opt.posix) continue;  // bash drops NUL bytes
    line.push_back(c);
    esc.push_back(false);
  }
  if (timed_out && idle_logout) {
    sh.flush_all();
    exec::write_all(2, "\nlash: timed out waiting for input: auto-logout\n");
    echo_off.restore();
    if (sh.in_subshell && sh.shell_pid > 0) ::kill(sh.shell_pid, SIGHUP);
    if (!sh.in_subshell) exec::hangup_jobs(sh);
    sh.exit_shell(sh.in_subshell ? 128 + SIGHUP : sh.status);
  }
  if (timed_out) {
    // bash assigns what arrived, and fails with a status above 128.
    if (!names.empty()) sh.vars.set(names[0], line);
    return 142;
  }
  if (parsed.exact && parsed.array.empty()) {
    if (!sh.vars.set(names[0], line)) {
      if (sh.vars.last_refused) return 126;
      sh.error("read: " + names[0] + ": is read only");
      return 2;
    }
    for (size_t v = 1; v < names.size(); ++v) sh.vars.set(names[v], "");
    return eof ? 1 : 0;
  }

  const std::string* ifsp = sh.vars.get("IFS");
  std::string ifs = ifsp ? *ifsp : " \t\n";
  auto is_ifs = [&](size_t k) { return !esc[k] && ifs.find(line[k]) != std::string::npos; };
  auto is_ws = [&](size_t k) { return !esc[k] && is_ifs_ws(line[k], ifs); };
  size_t pos = 0, len = line.size();
  while (pos < len && is_ws(pos)) ++pos;
  if (!parsed.array.empty()) {
    std::vector<std::string> fields;
    while (pos < len) {
      std::string value;
      while (pos < len && !is_ifs(pos)) value.push_back(line[pos++]);
      while (pos < len && is_ws(pos)) ++pos;
      if (pos < len && is_ifs(pos) && !is_ws(pos)) {
        ++pos;
        while (pos < len && is_ws(pos)) ++pos;
      }
      fields.push_back(std::move(value));
    }
    if (!sh.set_array(parsed.array, std::move(fields))) {
      if (sh.vars.last_refused) return 126;
      sh.error("read: " + parsed.array + ": is read only");
      return 2;
    }
    return eof ? 1 : 0;
  }
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

// getopts OPTSTRING NAME: NAME is assigned, and OPTARG set or unset (OPTIND is the
// shell's own); each an action when exported. Nothing on a usage error.
exec::BuiltinEffects getopts_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.walk.operands_are_variables = true;
  if (argv.size() < 3 || !syntax::is_name(argv[2])) return e;
  exec::add_env_action(sh, e.actions, argv[2], policy::EnvOp::set, true);
  exec::add_env_action(sh, e.actions, "OPTARG", policy::EnvOp::set, true);
  return e;
}

using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kVars[] = {
    {"export", bi_export, export_effects, K::special, "export variables to commands"},
    {"getopts", bi_getopts, getopts_effects, K::regular, "parse options"},
    {"local", bi_local, local_effects, K::regular, "function-local variables"},
    {"read", bi_read, read_effects, K::regular, "read a line into variables"},
    {"readonly", bi_readonly, readonly_effects, K::special, "make variables read-only"},
    {"set", bi_set, set_effects, K::special, "options and positional parameters"},
    {"shift", bi_shift, exec::no_effects, K::special, "shift positional parameters"},
    {"unset", bi_unset, unset_effects, K::special, "remove variables or functions"},
};

}  // namespace

void register_vars() { exec::register_builtins(kVars); }

}  // namespace lash::builtins
