// The multi-line dump format (what `lash -n --dump-ast` prints).
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;

TEST_CASE("dump is an indented tree") {
  auto p = parse_ok(
      "x=1 echo \"a $b\" >f &\n"
      "if a; then b | c; fi\n"
      "f() { case $1 in a) :;; esac; }\n");
  CHECK(dump(*p) ==
        "list\n"
        "  background\n"
        "    simple x=[\"1\"] [\"echo\"] [dq('a ' ${b})] >[\"f\"]\n"
        "  if\n"
        "    cond\n"
        "      simple [\"a\"]\n"
        "    then\n"
        "      pipeline\n"
        "        simple [\"b\"]\n"
        "        simple [\"c\"]\n"
        "  function f\n"
        "    group\n"
        "      case [${1}]\n"
        "        item [\"a\"]\n"
        "          simple [\":\"]\n");
}

TEST_CASE("dump escapes control characters and quotes") {
  CHECK(word("x 'a\"b' \"c\\\"d\" $'\\t'") == R"(["x"] ['a"b'] [dq('c"d')] ["$" '\\t'])");
  CHECK(word("x '\x01\t'") == R"(["x"] ['\x01\t'])");
}
