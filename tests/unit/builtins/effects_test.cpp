// Every row of the builtin table declares its effects (issue 17), and each effects
// function parses the builtin's options as the builtin does. A row without an effects
// function, or missing from the agreement corpus, fails here: a new builtin cannot
// skip the policy gate or the dry-run agreement.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "builtins/families.h"
#include "exec/builtin_api.h"
#include "exec/shell.h"

using lash::exec::BuiltinEffects;
using lash::exec::Shell;

namespace {

BuiltinEffects effects_of(Shell& sh, std::vector<std::string> argv) {
  lash::builtins::register_all();
  const auto* def = lash::exec::find_builtin(argv[0]);
  REQUIRE(def);
  REQUIRE(static_cast<bool>(def->effects));
  return def->effects(sh, argv);
}

// "env NAME" / "builtin NAME" / "spawn NAME", one per action, for compact checks.
std::vector<std::string> shown(const BuiltinEffects& e) {
  std::vector<std::string> out;
  for (const auto& a : e.actions) {
    std::string s(lash::policy::kind_name(a.action));
    s += " " + lash::policy::target_of(a.action);
    if (a.at_run_time) s += " (at run time)";
    out.push_back(s);
  }
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_SUITE("builtin effects") {

TEST_CASE("every row of the table has an effects function") {
  lash::builtins::register_all();
  auto all = lash::exec::all_builtins();
  CHECK(all.size() > 30);
  for (const auto* def : all) {
    INFO(def->name);
    CHECK(static_cast<bool>(def->effects));
  }
}

TEST_CASE("every row of the table is in the agreement corpus of builtins") {
  lash::builtins::register_all();
  std::ifstream in(LASH_BUILTINS_CORPUS);
  REQUIRE(in);
  // The words of the command lines (after the profile), split at blanks and ;&|(){}.
  std::vector<std::string> words;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string cmd = line.substr(line.find(' ') + 1), w;
    for (char c : cmd + " ") {
      if (c == ' ' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '{' || c == '}') {
        if (!w.empty()) words.push_back(w);
        w.clear();
      } else {
        w += c;
      }
    }
  }
  for (const auto* def : lash::exec::all_builtins()) {
    INFO(def->name);
    CHECK(std::find(words.begin(), words.end(), std::string(def->name)) != words.end());
  }
}

TEST_CASE("read: -p takes the next word as its prompt, also inside a group") {
  Shell sh;
  sh.vars.set("P", "prompt", true);
  sh.vars.set("x", "", true);
  CHECK(shown(effects_of(sh, {"read", "-rp", "P", "x"})) == V{"env x"});
  CHECK(shown(effects_of(sh, {"read", "-r", "-p", "P", "x"})) == V{"env x"});
  CHECK(shown(effects_of(sh, {"read", "-r", "P"})) == V{"env P"});
  CHECK(shown(effects_of(sh, {"read", "--", "-p"})).empty());  // a bad name: the builtin fails first
  CHECK(shown(effects_of(sh, {"read", "-p"})).empty());        // no argument for -p
  CHECK(shown(effects_of(sh, {"read", "-x", "P"})).empty());   // illegal option
}

TEST_CASE("export, readonly, unset, local: operands as the builtins parse them") {
  Shell sh;
  sh.vars.set("E", "1", true);
  CHECK(shown(effects_of(sh, {"export", "-p"})).empty());
  CHECK(shown(effects_of(sh, {"export", "-n", "E"})).empty());  // illegal option: nothing changes
  CHECK(shown(effects_of(sh, {"export", "N=1", "E"})) == V{"env N", "env E"});
  CHECK(shown(effects_of(sh, {"readonly", "E=2"})) == V{"env E", "env E"});
  CHECK(shown(effects_of(sh, {"readonly", "N=2"})).empty());  // not exported
  CHECK(shown(effects_of(sh, {"unset", "-f", "E"})).empty());
  CHECK(shown(effects_of(sh, {"unset", "-v", "E"})) == V{"env E"});
  CHECK(shown(effects_of(sh, {"unset", "-f", "-v", "E"})) == V{"env E"});  // the last of -f/-v wins
  CHECK(shown(effects_of(sh, {"local", "E=1", "N=1", "E"})) == V{"env E"});
}

TEST_CASE("getopts: NAME and OPTARG when exported; OPTIND is the shell's own") {
  Shell sh;
  sh.vars.set("E", "1", true);
  CHECK(shown(effects_of(sh, {"getopts", "a", "E"})) == V{"env E"});
  sh.vars.set("OPTARG", "", true);
  CHECK(shown(effects_of(sh, {"getopts", "a", "x"})) == V{"env OPTARG"});
  CHECK(shown(effects_of(sh, {"getopts", "a"})).empty());  // usage error
}

TEST_CASE("kill: -l signals nothing, a job is job control, a pid is decided when it runs") {
  Shell sh;
  CHECK(shown(effects_of(sh, {"kill", "-l"})).empty());
  CHECK(shown(effects_of(sh, {"kill", "-l", "15"})).empty());
  CHECK(shown(effects_of(sh, {"kill", "-s", "TERM"})).empty());  // no process: usage error
  CHECK(shown(effects_of(sh, {"kill", "-s", "NOSUCH", "1"})).empty());
  CHECK(shown(effects_of(sh, {"kill", "%1"})) == V{"builtin kill %1"});
  CHECK(shown(effects_of(sh, {"kill", "-s", "TERM", "1234"})) == V{"builtin kill 1234 (at run time)"});
  CHECK(shown(effects_of(sh, {"kill", "-9", "1234", "%2"})) ==
        V{"builtin kill 1234 (at run time)", "builtin kill %2"});
  CHECK(shown(effects_of(sh, {"wait", "%1"})) == V{"builtin wait %1"});
  CHECK(shown(effects_of(sh, {"wait", "1234"})).empty());
}

TEST_CASE("admin builtins need their capability; profile by subcommand") {
  Shell sh;
  CHECK(shown(effects_of(sh, {"audit", "tail"})) == V{"builtin audit"});
  CHECK(shown(effects_of(sh, {"profile", "switch", "x"})) == V{"builtin profile switch"});
  CHECK(shown(effects_of(sh, {"profile", "reload"})) == V{"builtin profile reload"});
  CHECK(shown(effects_of(sh, {"profile", "create", "x"})) == V{"builtin profile create"});
  CHECK(shown(effects_of(sh, {"profile", "edit", "x"})) == V{"builtin profile edit"});
  CHECK(shown(effects_of(sh, {"profile", "list"})).empty());
  CHECK(shown(effects_of(sh, {"profile", "test", "default", "ls"})).empty());
}

TEST_CASE("exec: the program that replaces the shell") {
  Shell sh;
  sh.vars.set("PATH", "/usr/bin:/bin", true);
  auto e = shown(effects_of(sh, {"exec", "--", "ls", "-l"}));
  REQUIRE(e.size() == 1);
  CHECK(e[0].rfind("spawn ls", 0) == 0);
  CHECK(shown(effects_of(sh, {"exec"})).empty());
}

TEST_CASE("walk hints: what the dry run follows") {
  Shell sh;
  CHECK(effects_of(sh, {"set", "-a"}).walk.allexport);
  CHECK(effects_of(sh, {"set", "-eo", "allexport"}).walk.allexport);
  CHECK_FALSE(effects_of(sh, {"set", "--", "-a"}).walk.allexport);
  CHECK_FALSE(effects_of(sh, {"set", "+a"}).walk.allexport);
  CHECK(effects_of(sh, {"cd", "/"}).walk.changes_cwd);
  CHECK(effects_of(sh, {"alias", "x=ls"}).walk.later_unknown);
  CHECK_FALSE(effects_of(sh, {"alias"}).walk.later_unknown);
  CHECK(effects_of(sh, {"profile", "switch", "x"}).walk.later_unknown);
  CHECK(effects_of(sh, {"unset", "-f", "g"}).walk.functions_removed == V{"g"});
  auto t = effects_of(sh, {"trap", "--", "ls", "EXIT"}).walk;
  CHECK(t.text == lash::exec::WalkHints::Text::later);
  CHECK(t.text_value == "ls");
  CHECK(effects_of(sh, {"trap", "-p"}).walk.text == lash::exec::WalkHints::Text::none);
  CHECK(effects_of(sh, {"trap", "2", "INT"}).walk.text == lash::exec::WalkHints::Text::none);  // reset
  auto ev = effects_of(sh, {"eval", "ls", "-l"}).walk;
  CHECK(ev.text == lash::exec::WalkHints::Text::now);
  CHECK(ev.text_value == "ls -l");
  CHECK(effects_of(sh, {".", "f"}).walk.text == lash::exec::WalkHints::Text::file);
}

}  // TEST_SUITE
