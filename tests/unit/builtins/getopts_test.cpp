// Unit tests of builtins/getopts_core: sequences of calls compared with dash
// (getopts_dash_cases.inc, see its header), plus the rules spelled out.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "builtins/getopts_core.h"

using lash::builtins::getopts_step;
using lash::builtins::GetoptsResult;
using lash::builtins::GetoptsState;

namespace {

struct GetoptsCase {
  const char* optstring;
  std::vector<std::string> args;
  const char* expected;
};

#include "getopts_dash_cases.inc"

// Runs `calls` getopts calls the way the builtin does and renders each like the
// generator: "status name OPTARG OPTIND diagnostic".
std::string simulate(std::string_view opts, const std::vector<std::string>& args, int calls = 8) {
  GetoptsState st;
  std::optional<std::string> optarg;
  std::string out;
  for (int i = 0; i < calls; ++i) {
    GetoptsResult r = getopts_step(opts, args, st);
    if (r.optarg == GetoptsResult::OptArg::set)
      optarg = r.optarg_value;
    else if (r.optarg == GetoptsResult::OptArg::unset)
      optarg.reset();
    out += std::to_string(r.status) + " " + r.name + " " + (optarg ? *optarg : "unset") + " " +
           std::to_string(r.optind) + " " + r.diagnostic + "\n";
  }
  return out;
}

}  // namespace

TEST_SUITE("getopts") {

TEST_CASE("sequences like dash") {
  for (const auto& c : kGetoptsCases) {
    std::string what = std::string("optstring [") + c.optstring + "] args";
    for (auto& a : c.args) what += " [" + a + "]";
    INFO(what);
    CHECK(simulate(c.optstring, c.args) == c.expected);
  }
}

TEST_CASE("option groups keep OPTIND on the word being walked") {
  GetoptsState st;
  std::vector<std::string> args{"-abc", "x"};
  auto r = getopts_step("abc", args, st);
  CHECK(r.name == 'a');
  CHECK(r.optind == 2);  // dash: OPTIND already points past the group
  r = getopts_step("abc", args, st);
  CHECK(r.name == 'b');
  r = getopts_step("abc", args, st);
  CHECK(r.name == 'c');
  CHECK(r.optind == 2);
  r = getopts_step("abc", args, st);
  CHECK(r.status == 1);
  CHECK(r.optind == 2);
  CHECK(r.optarg == GetoptsResult::OptArg::keep);  // OPTARG is left alone at the end
}

TEST_CASE("option arguments") {
  GetoptsState st;
  std::vector<std::string> args{"-ovalue", "-o", "next", "-o"};
  auto r = getopts_step("o:", args, st);
  CHECK(r.optarg_value == "value");
  CHECK(r.optind == 2);
  r = getopts_step("o:", args, st);
  CHECK(r.optarg_value == "next");
  CHECK(r.optind == 4);
  r = getopts_step("o:", args, st);
  CHECK(r.name == '?');
  CHECK(r.optarg == GetoptsResult::OptArg::unset);
  CHECK(r.diagnostic == "No arg for -o option");
  GetoptsState silent;
  r = getopts_step(":o:", std::vector<std::string>{"-o"}, silent);
  CHECK(r.name == ':');
  CHECK(r.optarg_value == "o");
  CHECK(r.diagnostic.empty());
}

TEST_CASE("reset and out-of-range OPTIND") {
  std::vector<std::string> args{"-a", "-b"};
  GetoptsState st{5, -1};  // beyond the arguments: starts over
  auto r = getopts_step("ab", args, st);
  CHECK(r.name == 'a');
  st = GetoptsState{2, -1};  // the user set OPTIND=2
  r = getopts_step("ab", args, st);
  CHECK(r.name == 'b');
  st = GetoptsState{0, -1};
  r = getopts_step("ab", args, st);
  CHECK(r.name == 'a');
}

TEST_CASE("end of options") {
  GetoptsState st;
  auto r = getopts_step("a", std::vector<std::string>{"--", "-a"}, st);
  CHECK(r.status == 1);
  CHECK(r.optind == 2);  // "--" is consumed
  st = GetoptsState{};
  r = getopts_step("a", std::vector<std::string>{"-", "-a"}, st);
  CHECK(r.status == 1);
  CHECK(r.optind == 1);  // a lone "-" is an operand
  st = GetoptsState{};
  r = getopts_step("a", std::vector<std::string>{"file", "-a"}, st);
  CHECK(r.status == 1);
  CHECK(r.name == '?');
}

}  // TEST_SUITE
