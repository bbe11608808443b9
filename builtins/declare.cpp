// Bash's declaration builtins: declare/typeset (and the array and attribute forms
// of local, readonly and export, which come here), and let. Every change is made
// through Vars, so read-only variables and the policy's env guard apply as they do
// to any assignment.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "builtins/families.h"
#include "builtins/declare.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::FatalError;
using exec::Shell;
using exec::Var;

namespace {

struct DeclFlags {
  bool indexed = false, assoc = false, integer = false, readonly = false, exported = false;
  bool lower = false, upper = false, global = false, print = false, funcs = false, func_names = false;
  bool unexport = false;
};

std::string dquote(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

std::string attr_letters(const Var& v) {
  std::string a;
  if (v.arr) a += v.arr->assoc ? 'A' : 'a';
  if (v.flags & Var::integer) a += 'i';
  if (v.flags & Var::lower) a += 'l';
  if (v.flags & Var::readonly) a += 'r';
  if (v.flags & Var::upper) a += 'u';
  if (v.flags & Var::exported) a += 'x';
  return a.empty() ? "-" : a;
}

void print_decl(Shell& sh, const std::string& name, const Var& v) {
  std::string line = "declare -" + attr_letters(v) + " " + name;
  if (v.arr) {
    line += "=(";
    if (v.arr->assoc) {
      for (auto& [k, val] : v.arr->keys) line += "[" + k + "]=" + dquote(val) + " ";
    } else {
      bool first = true;
      for (auto& [k, val] : v.arr->idx) {
        if (!first) line += ' ';
        first = false;
        line += "[" + std::to_string(k) + "]=" + dquote(val);
      }
    }
    line += ")";
  } else if (v.is_set()) {
    line += "=" + dquote(v.value);
  }
  sh.out() << line << '\n';
}

std::string cased(const Var* v, std::string value) {
  if (!v) return value;
  if (v->flags & Var::lower)
    for (auto& c : value) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (v->flags & Var::upper)
    for (auto& c : value) c = char(std::toupper(static_cast<unsigned char>(c)));
  return value;
}

[[noreturn]] void failed(Shell& sh, const std::string& name) {
  if (sh.vars.last_refused) throw exec::Refused{};
  throw FatalError{name + ": readonly variable", 1};
}

}  // namespace

int declare_impl(Shell& sh, std::vector<std::string>& argv, DeclMode mode) {
  const char* who = mode == DeclMode::local ? "local" : mode == DeclMode::readonly ? "readonly"
                  : mode == DeclMode::exported ? "export" : "declare";
  DeclFlags f;
  if (mode == DeclMode::readonly) f.readonly = true;
  if (mode == DeclMode::exported) f.exported = true;
  size_t i = 1;
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || (a[0] != '-' && a[0] != '+')) break;
    bool on = a[0] == '-';
    for (size_t k = 1; k < a.size(); ++k) {
      switch (a[k]) {
        case 'a': f.indexed = on; break;
        case 'A': f.assoc = on; break;
        case 'i': f.integer = on; break;
        case 'r': f.readonly = on; break;
        case 'x': if (on) f.exported = true; else f.unexport = true; break;
        case 'l': f.lower = on; break;
        case 'u': f.upper = on; break;
        case 'g': f.global = on; break;
        case 'p': f.print = true; break;
        case 'f': f.funcs = true; break;
        case 'F': f.func_names = true; break;
        case 'n': case 't': break;  // namerefs and trace: accepted, no effect
        default:
          sh.error(std::string(who) + ": -" + a[k] + ": invalid option");
          return 2;
      }
    }
  }
  if (f.funcs || f.func_names) {
    int st = 0;
    if (i >= argv.size()) {
      std::vector<std::string> names;
      for (auto& [n, b] : sh.functions) names.push_back(n);
      std::sort(names.begin(), names.end());
      for (auto& n : names) sh.out() << "declare -f " << n << '\n';
      return 0;
    }
    for (; i < argv.size(); ++i) {
      if (!sh.functions.count(argv[i])) st = 1;
      else if (f.func_names) sh.out() << argv[i] << '\n';
    }
    return st;
  }
  if (i >= argv.size()) {
    // No operands: list the variables that have the asked attributes.
    for (auto& n : sh.vars.names()) {
      const Var* v = sh.vars.find(n);
      if (!v || (!v->is_set() && !v->arr)) continue;
      if (f.indexed && !(v->arr && !v->arr->assoc)) continue;
      if (f.assoc && !(v->arr && v->arr->assoc)) continue;
      if (f.readonly && !(v->flags & Var::readonly)) continue;
      if (f.exported && !(v->flags & Var::exported)) continue;
      if (f.integer && !(v->flags & Var::integer)) continue;
      print_decl(sh, n, *v);
    }
    return 0;
  }
  int st = 0;
  bool make_local = mode == DeclMode::local || (mode == DeclMode::declare && !f.global && sh.vars.in_scope() &&
                                               sh.call_depth > 0);
  if (mode == DeclMode::local && (!sh.vars.in_scope() || sh.call_depth == 0)) {
    sh.error("local: can only be used in a function");
    return 1;
  }
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    size_t eq = a.find('=');
    std::string name = a.substr(0, eq);
    bool append = false;
    if (!name.empty() && name.back() == '+') {
      append = true;
      name.pop_back();
    }
    std::string sub;
    bool has_sub = false;
    if (size_t lb = name.find('['); lb != std::string::npos && name.back() == ']') {
      sub = name.substr(lb + 1, name.size() - lb - 2);
      name.resize(lb);
      has_sub = true;
    }
    if (f.print) {
      const Var* v = sh.vars.find(name);
      if (!v || (!v->is_set() && !v->arr && !v->flags)) {
        sh.error(std::string(who) + ": " + name + ": not found");
        st = 1;
        continue;
      }
      print_decl(sh, name, *v);
      continue;
    }
    if (!syntax::is_name(name)) {
      sh.error(std::string(who) + ": `" + a + "': not a valid identifier");
      st = 1;
      continue;
    }
    if (make_local) sh.vars.make_local(name);
    const Var* cur = sh.vars.find(name);
    if (cur && (cur->flags & Var::readonly) && (eq != std::string::npos || f.indexed || f.assoc)) {
      sh.error(std::string(who) + ": " + name + ": readonly variable");
      st = 1;
      continue;
    }
    if (f.assoc && cur && cur->arr && !cur->arr->assoc) {
      sh.error(std::string(who) + ": " + name + ": cannot convert indexed to associative array");
      st = 1;
      continue;
    }
    if (f.indexed || f.assoc) {
      if (!sh.vars.array_for_write(name, f.assoc)) failed(sh, name);
      sh.vars.array_changed(name);
    }
    if (f.integer && !sh.vars.set_flag(name, Var::integer)) failed(sh, name);
    if (f.lower) {
      sh.vars.clear_flag(name, Var::upper);
      if (!sh.vars.set_flag(name, Var::lower)) failed(sh, name);
    }
    if (f.upper) {
      sh.vars.clear_flag(name, Var::lower);
      if (!sh.vars.set_flag(name, Var::upper)) failed(sh, name);
    }
    if (eq != std::string::npos) {
      std::string value = a.substr(eq + 1);
      cur = sh.vars.find(name);
      if (!value.empty() && value[0] == Shell::kCompoundMark) {
        if (!sh.assign_compound_payload(name, append, std::string_view(value).substr(1), f.assoc)) failed(sh, name);
      } else {
        bool integer = cur && (cur->flags & Var::integer);
        if (integer) {
          int64_t n = sh.arith_value(value);
          if (append) {
            const std::string* old = has_sub ? sh.element(name, sub) : sh.vars.get(name);
            n += old ? sh.arith_value(*old) : 0;
            append = false;
          }
          value = std::to_string(n);
        }
        value = cased(cur, std::move(value));
        bool ok;
        if (has_sub) {
          ok = sh.set_element(name, sub, std::move(value), append);
        } else if (append) {
          const std::string* old = sh.vars.get(name);
          ok = sh.vars.set(name, (old ? *old : std::string()) + value);
        } else {
          ok = sh.vars.set(name, std::move(value));
        }
        if (!ok) failed(sh, name);
      }
    } else if (!cur && !(f.indexed || f.assoc) && !f.exported && !f.readonly && !f.integer) {
      // `declare x`: declared, unset (bash lists it with declare -p).
      if (!sh.vars.set_flag(name, 0)) failed(sh, name);
    }
    if (f.unexport) {
      // Taking a variable out of the environment changes what children get: the
      // policy decides, as for unset.
      const Var* v = sh.vars.find(name);
      if (v && (v->flags & Var::exported) && sh.vars.env_guard &&
          !sh.vars.env_guard(name, exec::Vars::EnvOp::unset))
        throw exec::Refused{};
      sh.vars.clear_flag(name, Var::exported);
    }
    if (f.exported && !sh.vars.set_flag(name, Var::exported)) throw exec::Refused{};
    if (f.readonly && !sh.vars.set_flag(name, Var::readonly)) throw exec::Refused{};
  }
  return st;
}

bool needs_declare(const std::vector<std::string>& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    // The array and attribute options; others (export -n) keep their POSIX error.
    if (a.size() > 1 && (a[0] == '-' || a[0] == '+') && a != "--" &&
        a.find_first_not_of("aAilug", 1) == std::string::npos)
      return true;
    size_t eq = a.find('=');
    if (eq != std::string::npos && eq + 1 < a.size() && a[eq + 1] == Shell::kCompoundMark) return true;
    std::string_view name = std::string_view(a).substr(0, eq);
    if (name.find('[') != std::string_view::npos || (!name.empty() && name.back() == '+')) return true;
  }
  return false;
}

namespace {

int bi_declare(Shell& sh, std::vector<std::string>& argv) { return declare_impl(sh, argv, DeclMode::declare); }

int bi_let(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    sh.error("let: expression expected");
    return 1;
  }
  int64_t v = 0;
  for (size_t i = 1; i < argv.size(); ++i) {
    try {
      v = sh.arith_value(argv[i]);
    } catch (const FatalError& e) {
      sh.error("let: " + e.message);
      return 1;
    }
  }
  return v != 0 ? 0 : 1;
}

// NAME=VALUE operands of an exported variable are environment changes.
exec::BuiltinEffects declare_effects(Shell& sh, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  e.walk.operands_are_variables = true;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (!a.empty() && (a[0] == '-' || a[0] == '+')) continue;
    auto eq = a.find('=');
    std::string name = a.substr(0, eq);
    if (auto lb = name.find_first_of("[+"); lb != std::string::npos) name.resize(lb);
    if (!syntax::is_name(name)) continue;
    if (eq != std::string::npos) exec::add_env_action(sh, e.actions, name, policy::EnvOp::set, true);
  }
  return e;
}

using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kDeclare[] = {
    {"declare", bi_declare, declare_effects, K::regular, "declare variables, arrays and their attributes"},
    {"typeset", bi_declare, declare_effects, K::regular, "the same as declare"},
    {"let", bi_let, exec::no_effects, K::regular, "evaluate arithmetic expressions"},
};

}  // namespace

void register_declare() { exec::register_builtins(kDeclare); }

}  // namespace lash::builtins
