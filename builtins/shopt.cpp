// shopt: bash's second set of options. The ones scripts rely on change what lash
// does (globbing, case matching, lastpipe, ERR traps in substitutions); the rest of
// bash's names are accepted and remembered, so a dotfile's `shopt -s histappend`
// does not fail, but they change nothing.
#include <map>
#include <string>
#include <vector>

#include "builtins/families.h"
#include "exec/options.h"
#include "exec/pattern.h"
#include "exec/shell.h"

namespace lash::builtins {
using exec::Options;
using exec::Shell;

namespace {

struct ShoptInfo {
  std::string_view name;
  bool Options::*field;  // null: remembered only
  bool initial = false;  // bash's default for the remembered ones
};

// Sorted, as bash lists them.
constexpr ShoptInfo kShopts[] = {
    {"autocd", nullptr},          {"cdable_vars", nullptr},       {"cdspell", nullptr},
    {"checkhash", nullptr},       {"checkjobs", nullptr},         {"checkwinsize", nullptr, true},
    {"cmdhist", nullptr, true},   {"complete_fullquote", nullptr, true},
    {"direxpand", nullptr},       {"dirspell", nullptr},          {"dotglob", &Options::dotglob},
    {"execfail", nullptr},        {"expand_aliases", &Options::expand_aliases},
    {"extdebug", nullptr},        {"extglob", &Options::extglob}, {"extquote", nullptr, true},
    {"failglob", &Options::failglob}, {"force_fignore", nullptr, true},
    {"globasciiranges", nullptr, true}, {"globskipdots", nullptr, true},
    {"globstar", &Options::globstar}, {"gnu_errfmt", nullptr},    {"histappend", nullptr},
    {"histreedit", nullptr},      {"histverify", nullptr},        {"hostcomplete", nullptr},
    {"huponexit", nullptr},       {"inherit_errexit", &Options::inherit_errexit},
    {"interactive_comments", nullptr, true}, {"lastpipe", &Options::lastpipe},
    {"lithist", nullptr},         {"localvar_inherit", nullptr},  {"localvar_unset", nullptr},
    {"login_shell", nullptr},     {"mailwarn", nullptr},          {"no_empty_cmd_completion", nullptr},
    {"nocaseglob", &Options::nocaseglob}, {"nocasematch", &Options::nocasematch},
    {"noexpand_translation", nullptr}, {"nullglob", &Options::nullglob},
    {"patsub_replacement", nullptr, true}, {"progcomp", nullptr, true},
    {"progcomp_alias", nullptr},  {"promptvars", nullptr, true},  {"restricted_shell", nullptr},
    {"shift_verbose", nullptr},   {"sourcepath", nullptr, true},  {"varredir_close", nullptr},
    {"xpg_echo", nullptr},
};

// The remembered-only options' values (per process: a subshell inherits a copy).
std::map<std::string_view, bool>& remembered() {
  static std::map<std::string_view, bool> m = [] {
    std::map<std::string_view, bool> r;
    for (const auto& s : kShopts)
      if (!s.field) r[s.name] = s.initial;
    return r;
  }();
  return m;
}

const ShoptInfo* find(std::string_view name) {
  for (const auto& s : kShopts)
    if (s.name == name) return &s;
  return nullptr;
}

bool get(const Shell& sh, const ShoptInfo& s) { return s.field ? sh.opt.*s.field : remembered()[s.name]; }
void put(Shell& sh, const ShoptInfo& s, bool on) {
  if (s.field) sh.opt.*s.field = on;
  if (s.field == &Options::extglob) lash::exec::pattern_extglob = on;
  if (!s.field) remembered()[s.name] = on;
}

void show(Shell& sh, std::string_view name, bool on, bool as_command, bool set_o) {
  if (as_command) {
    if (set_o) sh.out() << "set " << (on ? "-o " : "+o ") << name << '\n';
    else sh.out() << "shopt " << (on ? "-s " : "-u ") << name << '\n';
    return;
  }
  std::string line(name);
  if (line.size() < 15) line.resize(15, ' ');
  sh.out() << line << '\t' << (on ? "on" : "off") << '\n';
}

int bi_shopt(Shell& sh, std::vector<std::string>& argv) {
  bool s = false, u = false, q = false, p = false, o = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (size_t k = 1; k < argv[i].size(); ++k) {
      switch (argv[i][k]) {
        case 's': s = true; break;
        case 'u': u = true; break;
        case 'q': q = true; break;
        case 'p': p = true; break;
        case 'o': o = true; break;
        default:
          sh.error("shopt: -" + std::string(1, argv[i][k]) + ": invalid option");
          sh.error("shopt: usage: shopt [-pqsu] [-o] [optname ...]");
          return 2;
      }
    }
  }
  if (s && u) {
    sh.error("shopt: cannot set and unset shell options simultaneously");
    return 1;
  }
  int st = 0;
  if (i == argv.size()) {  // list: all, or those -s / -u select
    if (o) {
      for (std::string_view name : {"allexport", "errexit", "errtrace", "functrace", "ignoreeof", "monitor",
                                    "noclobber", "noexec", "noglob", "nounset", "pipefail", "posix", "verbose",
                                    "xtrace"}) {
        bool on = exec::option_state(sh, name).value_or(false);
        if ((s && !on) || (u && on)) continue;
        if (!q) show(sh, name, on, p, true);
      }
      return 0;
    }
    for (const auto& info : kShopts) {
      bool on = get(sh, info);
      if ((s && !on) || (u && on)) continue;
      if (!q) show(sh, info.name, on, p, false);
    }
    return 0;
  }
  for (; i < argv.size(); ++i) {
    const std::string& name = argv[i];
    if (o) {
      std::optional<bool> on = exec::option_state(sh, name);
      if (!on) {
        sh.error("shopt: " + name + ": invalid option name");
        st = 1;
        continue;
      }
      if (s || u) {
        exec::set_long_option(sh, name, s);
      } else {
        if (!q) show(sh, name, *on, p, true);
        if (!*on) st = 1;
      }
      continue;
    }
    const ShoptInfo* info = find(name);
    if (!info) {
      sh.error("shopt: " + name + ": invalid shell option name");
      st = 1;
      continue;
    }
    if (s || u) {
      put(sh, *info, s);
      continue;
    }
    bool on = get(sh, *info);
    if (!q) show(sh, name, on, p, false);
    if (!on) st = 1;
  }
  return st;
}

using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kShopt[] = {
    {"shopt", bi_shopt, no_effects, K::regular, "bash's shell options (nullglob, extglob, lastpipe, ...)"},
};

}  // namespace

void register_shopt() { exec::register_builtins(kShopt); }

}  // namespace lash::builtins
