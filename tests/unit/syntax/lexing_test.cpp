// Tokens: operators, io_numbers, comments, line continuations, reserved words,
// assignments.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;

TEST_CASE("simple words and blanks") {
  CHECK(line("echo hi") == R"(list { simple ["echo"] ["hi"] })");
  CHECK(line("  echo\t \thi   ") == R"(list { simple ["echo"] ["hi"] })");
  CHECK(line("") == "list");
  CHECK(line("\n\n  \n") == "list");
}

TEST_CASE("operators split words without blanks") {
  CHECK(line("a&&b||c") ==
        R"(list { and_or { simple ["a"]; && { simple ["b"] }; || { simple ["c"] } } })");
  CHECK(line("a|b") == R"(list { pipeline { simple ["a"]; simple ["b"] } })");
  CHECK(line("a;b&c") ==
        R"(list { simple ["a"]; background { simple ["b"] }; simple ["c"] })");
  CHECK(line("(a)") == R"(list { subshell { simple ["a"] } })");
  CHECK(line("a>b<c") == R"(list { simple ["a"] >["b"] <["c"] })");
}

TEST_CASE("redirection operators") {
  CHECK(line("a <f >g >>h >|i <>j <&3 >&4 &>k") ==
        R"(list { simple ["a"] <["f"] >["g"] >>["h"] >|["i"] <>["j"] <&["3"] >&["4"] &>["k"] })");
  CHECK(line("a 2>&-") == R"(list { simple ["a"] 2>&["-"] })");
}

TEST_CASE("io_number only for digits directly before < or >") {
  CHECK(line("echo 2>f") == R"(list { simple ["echo"] 2>["f"] })");
  CHECK(line("echo 2 >f") == R"(list { simple ["echo"] ["2"] >["f"] })");
  CHECK(line("echo a2>f") == R"(list { simple ["echo"] ["a2"] >["f"] })");
  CHECK(line("echo \"2\">f") == R"(list { simple ["echo"] [dq('2')] >["f"] })");
  CHECK(line("echo 12<f") == R"(list { simple ["echo"] 12<["f"] })");
  CHECK(line("echo 2&>f") == R"(list { simple ["echo"] ["2"] &>["f"] })");
  // Too large for a descriptor: an ordinary word.
  CHECK(line("echo 12345678901>f") == R"(list { simple ["echo"] ["12345678901"] >["f"] })");
  auto p = parse_ok("cat 3<in 10>out");
  const auto& sc = first_simple(*p);
  REQUIRE(sc.redirects.size() == 2);
  CHECK(sc.redirects[0].fd == 3);
  CHECK(sc.redirects[0].op == lash::ast::RedirOp::in);
  CHECK(sc.redirects[1].fd == 10);
  CHECK(sc.redirects[1].op == lash::ast::RedirOp::out);
  CHECK(first_simple(*parse_ok("cat >x")).redirects[0].fd == -1);
}

TEST_CASE("comments") {
  CHECK(line("echo a # comment") == R"(list { simple ["echo"] ["a"] })");
  CHECK(line("echo a#b") == R"(list { simple ["echo"] ["a#b"] })");
  CHECK(line("# only a comment\necho x") == R"(list { simple ["echo"] ["x"] })");
  CHECK(line("echo a;#c\necho b") == R"(list { simple ["echo"] ["a"]; simple ["echo"] ["b"] })");
  CHECK(line("echo '#a' \"#b\" \\#c") == R"(list { simple ["echo"] ['#a'] [dq('#b')] ['#' "c"] })");
  // A backslash at the end of a comment does not continue it.
  CHECK(line("echo a # x \\\necho b") == R"(list { simple ["echo"] ["a"]; simple ["echo"] ["b"] })");
  CHECK(line("echo ${x#y}") == R"(list { simple ["echo"] [${x#["y"]}] })");
}

TEST_CASE("line continuation") {
  CHECK(line("ec\\\nho hi") == R"(list { simple ["echo"] ["hi"] })");
  CHECK(line("echo a \\\n b") == R"(list { simple ["echo"] ["a"] ["b"] })");
  CHECK(line("a &\\\n& b") == R"(list { and_or { simple ["a"]; && { simple ["b"] } } })");
  CHECK(line("echo \"a\\\nb\"") == R"(list { simple ["echo"] [dq('ab')] })");
  // Not inside single quotes.
  CHECK(line("echo 'a\\\nb'") == R"(list { simple ["echo"] ['a\\\nb'] })");
  // An escaped backslash before a newline is not a continuation.
  CHECK(line("echo a\\\\\necho b") == R"(list { simple ["echo"] ["a" '\\']; simple ["echo"] ["b"] })");
  CHECK(line("echo $\\\nHOME ${\\\nx}") == R"(list { simple ["echo"] [${HOME}] [${x}] })");
}

TEST_CASE("reserved words only in command position") {
  CHECK(line("echo if then fi") == R"(list { simple ["echo"] ["if"] ["then"] ["fi"] })");
  CHECK(line("echo }") == R"(list { simple ["echo"] ["}"] })");
  CHECK(line("echo {") == R"(list { simple ["echo"] ["{"] })");
  CHECK(line("{ echo }; }") == R"(list { group { simple ["echo"] ["}"] } })");
  CHECK(line("{echo a;}") == "ERROR: lash:1:9: syntax error: unexpected '}'");
  CHECK(line("\"if\" x") == R"(list { simple [dq('if')] ["x"] })");
  CHECK(line("\\if x") == R"(list { simple ['i' "f"] ["x"] })");
  // After an assignment the next word is not a reserved word.
  CHECK(line("a=1 if") == R"(list { simple a=["1"] ["if"] })");
  CHECK(line("if true; then echo fi; fi") ==
        R"(list { if { cond { simple ["true"] }; then { simple ["echo"] ["fi"] } } })");
}

TEST_CASE("assignments only before the command name") {
  CHECK(line("a=1 b= c=x=y cmd d=2") ==
        R"(list { simple a=["1"] b=[] c=["x=y"] ["cmd"] ["d=2"] })");
  CHECK(line("a=1") == R"(list { simple a=["1"] })");
  CHECK(line("=a") == R"(list { simple ["=a"] })");
  CHECK(line("1a=b") == R"(list { simple ["1a=b"] })");
  CHECK(line("a-b=c") == R"(list { simple ["a-b=c"] })");
  CHECK(line("\"a\"=b") == R"(list { simple [dq('a') "=b"] })");
  CHECK(line("a\\=b") == R"(list { simple ["a" '=' "b"] })");
  CHECK(line(">f a=1 cmd") == R"(list { simple a=["1"] ["cmd"] >["f"] })");
  CHECK(line("a=\"x y\"$z") == R"(list { simple a=[dq('x y') ${z}] })");
  auto p = parse_ok("FOO=bar env");
  const auto& sc = first_simple(*p);
  REQUIRE(sc.assignments.size() == 1);
  CHECK(sc.assignments[0].name == "FOO");
  REQUIRE(sc.words.size() == 1);
}

TEST_CASE("NUL bytes are an error, not a crash") {
  using namespace std::string_literals;
  for (std::string text : {"echo a\0b"s, "echo 'a\0'"s, "echo \"\0\""s, "\0"s, "cat <<E\n\0\nE\n"s,
                           "cat <<'E'\na\0\nE\n"s, "echo `\0`"s, "echo ${x:-\0}"s}) {
    ParseResult r = parse(text, {});
    REQUIRE(r.error);
    CHECK(r.error->message == "NUL byte in input");
    CHECK_FALSE(r.error->incomplete);
  }
  ParseResult r = parse("echo a\0b"s, {});
  CHECK(r.error->column == 7);
  // A NUL in a comment is harmless.
  CHECK(line("echo a #\0\n"s) == R"(list { simple ["echo"] ["a"] })");
}
