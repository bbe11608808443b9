// Core builtins: : true false exit return break continue eval . exec command type
// hash alias unalias.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>

#include "base/fileio.h"
#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/policy_gate.h"
#include "exec/session_view.h"
#include "exec/shell.h"
#include "exec/user_files.h"

namespace lash::builtins {
using exec::Ctl;
using exec::FatalError;
using exec::Shell;

namespace {

int bi_true(Shell&, std::vector<std::string>&) { return 0; }
int bi_false(Shell&, std::vector<std::string>&) { return 1; }

// Parses a status/count operand; throws the special-builtin error on junk.
int64_t number_arg(Shell& sh, const std::string& name, const std::string& s) {
  auto v = str::parse_int(s);
  if (!v || *v < 0) throw FatalError{name + ": Illegal number: " + s, 2};
  (void)sh;
  return *v;
}

int bi_exit(Shell& sh, std::vector<std::string>& argv) {
  int st = sh.in_trap ? sh.status : sh.status;
  if (argv.size() > 1) st = int(number_arg(sh, "exit", argv[1]) & 0xff);
  sh.ctl = Ctl::exit;
  sh.exit_status_for_ctl = st;
  return st;
}

int bi_return(Shell& sh, std::vector<std::string>& argv) {
  int st = sh.status;
  if (argv.size() > 1) st = int(number_arg(sh, "return", argv[1]) & 0xff);
  sh.ctl = Ctl::ret;
  sh.exit_status_for_ctl = st;
  return st;
}

int loop_ctl(Shell& sh, std::vector<std::string>& argv, Ctl which) {
  int64_t n = 1;
  if (argv.size() > 1) {
    n = number_arg(sh, argv[0], argv[1]);
    if (n < 1) throw FatalError{argv[0] + ": Illegal number: " + argv[1], 2};
  }
  if (sh.loop_depth == 0) return 0;
  if (n > sh.loop_depth) n = sh.loop_depth;
  sh.ctl = which;
  sh.ctl_count = int(n);
  return 0;
}
int bi_break(Shell& sh, std::vector<std::string>& argv) { return loop_ctl(sh, argv, Ctl::brk); }
int bi_continue(Shell& sh, std::vector<std::string>& argv) { return loop_ctl(sh, argv, Ctl::cont); }

// The text eval runs: its operands joined by spaces (bi_eval and eval_effects).
std::string eval_text(const std::vector<std::string>& argv) {
  std::string text;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (i > 1) text += ' ';
    text += argv[i];
  }
  return text;
}

int bi_eval(Shell& sh, std::vector<std::string>& argv) {
  std::string text = eval_text(argv);
  if (text.empty()) return 0;
  return sh.eval_string(text, sh.source_name);
}

int bi_dot(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) throw FatalError{".: filename argument required", 2};
  std::string path = exec::find_dot_file(sh, argv[1]);
  if (path.empty()) {
    if (!sh.services().refusal().empty()) exec::report_sandbox_refusal(sh, "read '" + argv[1] + "'");
    throw FatalError{".: cannot open " + argv[1] + ": No such file", 2};
  }
  std::string text;
  // Read through the session's broker when sandboxed: the kernel checks it.
  if (int err = exec::read_user_file(sh, path, text)) {
    if (!sh.services().refusal().empty()) exec::report_sandbox_refusal(sh, "read '" + path + "'");  // failed closed: say why
    throw FatalError{".: cannot open " + path + ": " + std::strerror(err), 2};
  }
  if (sh.call_depth >= exec::kMaxCallDepth) throw FatalError{".: nesting limit reached", 2};
  std::vector<std::string> saved;
  bool new_params = argv.size() > 2;
  if (new_params) {
    saved = sh.params;
    sh.params.assign(argv.begin() + 2, argv.end());
  }
  ++sh.call_depth;
  // bash's call stack: a sourced file is a frame ("source") of FUNCNAME/BASH_SOURCE.
  bool frame = !sh.opt.posix;
  if (frame) sh.frames.push_back({"source", path, sh.line});
  int st;
  try {
    st = sh.run_text(text, path);
  } catch (...) {
    --sh.call_depth;
    if (frame) sh.frames.pop_back();
    if (new_params) sh.params = saved;
    throw;
  }
  --sh.call_depth;
  if (frame) sh.frames.pop_back();
  if (new_params) sh.params = saved;
  if (sh.ctl == Ctl::ret) {
    sh.ctl = Ctl::none;
    st = sh.exit_status_for_ctl;
  }
  return st;
}

int bi_exec_placeholder(Shell&, std::vector<std::string>&) { return 0; }  // run by the interpreter

// ---- effects (builtin_api.h): what each builtin above would do, parsed as it parses ----

// `.` FILE: runs the file's text (the dry run reads and walks it as `.` finds it).
// In the dry run, operands from an expansion make the text unknown (said so by the walk).
bool dry_dynamic(const Shell& sh) { return sh.dry && sh.dry_dynamic; }

exec::BuiltinEffects dot_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  if (dry_dynamic(sh)) e.walk.text = exec::WalkHints::Text::file;
  if (argv.size() < 2) return e;  // "filename argument required"
  e.walk.text = exec::WalkHints::Text::file;
  e.walk.text_value = argv[1];
  return e;
}

// eval: the text it runs, now.
exec::BuiltinEffects eval_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.walk.text_value = eval_text(argv);
  if (!e.walk.text_value.empty() || dry_dynamic(sh)) e.walk.text = exec::WalkHints::Text::now;
  return e;
}

// `exec CMD`: the program that replaces the shell is a spawn like any other (the
// interpreter runs it: run_exec_builtin, which skips one `--` as here). Without a
// command its redirections are the plan's own actions.
exec::BuiltinEffects exec_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  size_t i = 1;
  if (i < argv.size() && argv[i] == "--") ++i;
  if (i < argv.size()) e.actions.push_back(exec::spawn_action(sh, argv[i]));
  return e;
}

// alias NAME=VALUE defines an alias, which changes how later lines parse: the dry run
// (one parse, up front) cannot follow that. Listing aliases changes nothing.
exec::BuiltinEffects alias_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  for (size_t i = 1; i < argv.size(); ++i)
    if (argv[i].find('=') != std::string::npos) e.walk.later_unknown = true;
  return e;
}

bool is_keyword(std::string_view w) {
  static constexpr std::string_view kw[] = {"!", "{", "}", "case", "do", "done", "elif", "else",
                                            "esac", "fi", "for", "if", "in", "then", "until", "while"};
  for (auto k : kw)
    if (k == w) return true;
  return false;
}

// Whether the session's policy refuses to run the program PATH found for NAME: the
// same plan and engine as running it, without an audit record (a lookup runs nothing).
bool refused_by_profile(Shell& sh, const std::string& name, const std::string& path) {
  if (!sh.gate) return false;
  exec::SimplePlan p;
  p.kind = exec::SimplePlan::Kind::external;
  p.argv = {name};
  p.path = path;
  for (const auto& c : exec::check(exec::plan_actions(sh, p), sh.gate->engine()))
    if (!c.decision.allowed()) return true;
  return false;
}

// Describes NAME as `type` / `command -V` do. Returns false if not found.
bool describe(Shell& sh, const std::string& name, bool verbose, std::string& out) {
  if (auto it = sh.aliases.find(name); it != sh.aliases.end()) {
    out = verbose ? name + " is an alias for " + it->second : "alias " + name + "=" + str::quote_always(it->second);
    return true;
  }
  if (is_keyword(name)) {
    out = verbose ? name + " is a shell keyword" : name;
    return true;
  }
  const exec::BuiltinDef* b = exec::find_builtin(name);
  if (b && b->kind == exec::BuiltinKind::special) {
    out = verbose ? name + " is a special shell builtin" : name;
    return true;
  }
  if (sh.functions.count(name)) {
    out = verbose ? name + " is a shell function" : name;
    return true;
  }
  if (b) {
    out = verbose ? name + " is a shell builtin" : name;
    return true;
  }
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) return false;
    out = verbose ? name + " is " + name : name;
    return true;
  }
  bool was_hashed = sh.hashed.count(name) > 0 && sh.hashed_generation == sh.vars.path_generation();
  std::string path = sh.find_command(name);
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) return false;
  if (!was_hashed) sh.hashed.erase(name);  // looking it up is not running it
  if (refused_by_profile(sh, name, path)) {
    // Not a command this session can run: `command -v tool && tool` takes the other
    // branch, as it would where the tool is missing. -V and type say why.
    if (!verbose) return false;
    out = name + " is " + path + ", which this session's profile refuses to run";
    return true;
  }
  out = verbose ? name + (was_hashed ? " is a tracked alias for " : " is ") + path : path;
  return true;
}

// bash's `type -t` word for NAME ("" when not found).
std::string type_word(Shell& sh, const std::string& name) {
  if (sh.aliases.count(name)) return "alias";
  if (is_keyword(name) || name == "[[" || name == "]]" || name == "function" || name == "select" ||
      name == "time" || name == "coproc")
    return "keyword";
  const exec::BuiltinDef* b = exec::find_builtin(name);
  if (b && b->kind == exec::BuiltinKind::special) return "builtin";
  if (sh.functions.count(name)) return "function";
  if (b) return "builtin";
  std::string d;
  return describe(sh, name, false, d) ? "file" : "";
}

// Every executable NAME in PATH, in order (type -a).
std::vector<std::string> all_paths(Shell& sh, const std::string& name) {
  std::vector<std::string> out;
  const std::string* pv = sh.vars.get("PATH");
  std::string_view dirs = pv ? std::string_view(*pv) : std::string_view("/usr/local/bin:/usr/bin:/bin");
  size_t start = 0;
  for (;;) {
    size_t colon = dirs.find(':', start);
    std::string dir(dirs.substr(start, colon == std::string_view::npos ? dirs.npos : colon - start));
    std::string cand = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(cand.c_str(), X_OK) == 0 && !exec::view_hides(sh, cand)) out.push_back(cand);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

int bi_type(Shell& sh, std::vector<std::string>& argv) {
  int st = 0;
  size_t first = 1;
  bool t = false, p = false, P = false, a = false, f = false;
  if (!sh.opt.posix) {
    for (; first < argv.size() && argv[first].size() > 1 && argv[first][0] == '-'; ++first) {
      if (argv[first] == "--") {
        ++first;
        break;
      }
      for (size_t k = 1; k < argv[first].size(); ++k) {
        switch (argv[first][k]) {
          case 't': t = true; break;
          case 'p': p = true; break;
          case 'P': P = true; break;
          case 'a': a = true; break;
          case 'f': f = true; break;
          default:
            sh.error("type: -" + std::string(1, argv[first][k]) + ": invalid option");
            return 2;
        }
      }
    }
  }
  if (t || p || P || a || f) {
    for (size_t i = first; i < argv.size(); ++i) {
      const std::string& name = argv[i];
      std::string word = type_word(sh, name);
      if (f && word == "function") word = sh.aliases.count(name) ? "alias" : "";
      if (f && word.empty()) {
        std::string d;
        if (describe(sh, name, false, d)) word = "file";
      }
      bool found = false;
      if (t) {
        if (a && word == "file") {
          for (size_t k = 0; k < all_paths(sh, name).size(); ++k) sh.out() << "file\n";
          found = true;
        } else if (!word.empty()) {
          sh.out() << word << '\n';
          found = true;
        }
      } else if ((p || P) && !a) {
        if (P || word == "file") {
          auto paths = all_paths(sh, name);
          if (name.find('/') != std::string::npos && ::access(name.c_str(), X_OK) == 0) paths = {name};
          if (!paths.empty()) sh.out() << paths.front() << '\n';
          found = !paths.empty();
        } else {
          found = !word.empty();
        }
      } else {  // -a: every meaning, in the order they are found
        if (auto it = sh.aliases.find(name); it != sh.aliases.end() && !p && !P) {
          sh.out() << name << " is aliased to `" << it->second << "'\n";
          found = true;
        }
        if (!p && !P && (word == "keyword")) {
          sh.out() << name << " is a shell keyword\n";
          found = true;
        }
        if (!p && !P && !f && sh.functions.count(name)) {
          sh.out() << name << " is a function\n";
          found = true;
        }
        if (!p && !P && exec::find_builtin(name)) {
          sh.out() << name << " is a shell builtin\n";
          found = true;
        }
        for (auto& path : all_paths(sh, name)) {
          sh.out() << (p || P ? path : name + " is " + path) << '\n';
          found = true;
        }
      }
      if (!found) st = 1;
    }
    return st;
  }
  for (size_t i = first; i < argv.size(); ++i) {
    std::string d;
    if (describe(sh, argv[i], true, d)) {
      sh.out() << d << '\n';
    } else {
      sh.out() << argv[i] << ": not found\n";
      st = 127;
    }
  }
  return st;
}

// Only -v / -V reach bi_command: `command [-p] NAME` is resolved and run by the
// interpreter (Interp::plan), whose plan carries NAME's own effects. A lookup runs
// nothing, so `command` declares none (exec::no_effects).
int bi_command(Shell& sh, std::vector<std::string>& argv) {
  size_t i = 1;
  bool v = false, V = false;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (size_t k = 1; k < argv[i].size(); ++k) {
      char c = argv[i][k];
      if (c == 'v')
        v = true;
      else if (c == 'V')
        V = true;
      else if (c != 'p') {
        sh.error("command: illegal option -" + std::string(1, c));
        return 2;
      }
    }
  }
  if (i >= argv.size()) return 0;
  // bash describes every operand; sh mode (and dash) only the first.
  size_t last = sh.opt.posix ? i + 1 : argv.size();
  int st = 0;
  for (; i < last; ++i) {
    std::string d;
    if (!describe(sh, argv[i], V, d)) {
      if (V) sh.out() << argv[i] << ": not found\n";
      st = sh.opt.posix ? 127 : 1;
      continue;
    }
    sh.out() << d << '\n';
  }
  (void)v;
  return st;
}

// `source FILE`: bash's name for `.`; a file it cannot read is an error of the
// command (status 1), not of the shell.
int bi_source(Shell& sh, std::vector<std::string>& argv) {
  if (sh.opt.posix) return bi_dot(sh, argv);
  try {
    return bi_dot(sh, argv);
  } catch (const FatalError& e) {
    if (e.message.empty()) throw;
    std::string msg = e.message;
    if (msg.compare(0, 2, ".:") == 0) msg = "source" + msg.substr(1);
    sh.error(msg);
    return argv.size() < 2 ? 2 : 1;
  }
}

// `builtin NAME ARGS` is resolved by the planner (Interp::plan) into NAME's own plan;
// this runs only when NAME is no builtin.
int bi_builtin(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) return 0;
  sh.error("builtin: " + argv[1] + ": not a shell builtin");
  return 1;
}

// caller [N]: "LINE FILE" of the current call, or "LINE FUNC FILE" of frame N.
int bi_caller(Shell& sh, std::vector<std::string>& argv) {
  if (sh.frames.empty()) return 1;
  size_t n = 0;
  bool numbered = argv.size() > 1;
  if (numbered) {
    auto v = str::parse_int(argv[1]);
    if (!v || *v < 0) {
      sh.error("caller: " + argv[1] + ": invalid number");
      return 2;
    }
    n = size_t(*v);
  }
  if (n >= sh.frames.size()) return 1;
  // Frames innermost first: frame n was called at its line, from frame n+1 (or main).
  const auto& f = sh.frames[sh.frames.size() - 1 - n];
  bool outer = n + 1 >= sh.frames.size();
  std::string func = outer ? "main" : sh.frames[sh.frames.size() - 2 - n].func;
  std::string file = outer ? sh.script_path : sh.frames[sh.frames.size() - 2 - n].source;
  if (file.empty()) file = "NULL";
  if (numbered) sh.out() << std::to_string(f.line) << ' ' << func << ' ' << file << '\n';
  else sh.out() << std::to_string(f.line) << ' ' << file << '\n';
  return 0;
}

int bi_hash(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() == 1) {
    if (sh.hashed_generation != sh.vars.path_generation()) return 0;
    std::vector<std::string> paths;
    for (auto& [n, p] : sh.hashed) paths.push_back(p);
    std::sort(paths.begin(), paths.end());
    for (auto& p : paths) sh.out() << p << '\n';
    return 0;
  }
  int st = 0;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "-r") {
      sh.hashed.clear();
      continue;
    }
    if (exec::find_builtin(argv[i]) || sh.functions.count(argv[i])) continue;
    if (sh.find_command(argv[i], false).empty()) {
      sh.error("hash: " + argv[i] + ": not found");
      st = 1;
    }
  }
  return st;
}

int bi_alias(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() == 1) {
    std::vector<std::string> names;
    for (auto& [n, v] : sh.aliases) names.push_back(n);
    std::sort(names.begin(), names.end());
    for (auto& n : names) sh.out() << n << '=' << str::quote_always(sh.aliases[n]) << '\n';
    return 0;
  }
  int st = 0;
  for (size_t i = 1; i < argv.size(); ++i) {
    auto eq = argv[i].find('=');
    if (eq == std::string::npos) {
      auto it = sh.aliases.find(argv[i]);
      if (it == sh.aliases.end()) {
        sh.error("alias: " + argv[i] + " not found");
        st = 1;
      } else {
        sh.out() << it->first << '=' << str::quote_always(it->second) << '\n';
      }
      continue;
    }
    sh.aliases[argv[i].substr(0, eq)] = argv[i].substr(eq + 1);
  }
  return st;
}

int bi_unalias(Shell& sh, std::vector<std::string>& argv) {
  int st = 0;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "-a") {
      sh.aliases.clear();
      continue;
    }
    if (!sh.aliases.erase(argv[i])) {
      sh.error("unalias: " + argv[i] + " not found");
      st = 1;
    }
  }
  return st;
}

using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kCore[] = {
    {".", bi_dot, dot_effects, K::special, "run commands from a file in this shell"},
    {":", bi_true, no_effects, K::special, "do nothing, successfully"},
    {"alias", bi_alias, alias_effects, K::regular, "define or show aliases"},
    {"builtin", bi_builtin, no_effects, K::regular, "run a shell builtin, skipping functions"},
    {"caller", bi_caller, no_effects, K::regular, "the line and file of the current call"},
    {"break", bi_break, no_effects, K::special, "leave a loop"},
    {"command", bi_command, no_effects, K::regular, "run or describe a command, skipping functions"},
    {"continue", bi_continue, no_effects, K::special, "next iteration of a loop"},
    {"eval", bi_eval, eval_effects, K::special, "run arguments as shell text"},
    {"exec", bi_exec_placeholder, exec_effects, K::special, "replace the shell or make redirections permanent"},
    {"exit", bi_exit, no_effects, K::special, "end the shell"},
    {"false", bi_false, no_effects, K::regular, "fail"},
    {"hash", bi_hash, no_effects, K::regular, "remembered command locations"},
    {"return", bi_return, no_effects, K::special, "return from a function or sourced file"},
    {"source", bi_source, dot_effects, K::regular, "run commands from a file in this shell (bash's .)"},
    {"true", bi_true, no_effects, K::regular, "succeed"},
    {"type", bi_type, no_effects, K::regular, "describe commands"},
    {"unalias", bi_unalias, no_effects, K::regular, "remove aliases"},
};

}  // namespace

void register_core() { exec::register_builtins(kCore); }

}  // namespace lash::builtins
