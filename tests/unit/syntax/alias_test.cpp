// Alias substitution (POSIX 2.3.1).
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;

TEST_CASE("alias in command position") {
  auto o = with_aliases({{"ll", "ls -l"}, {"q", "'quoted word'"}});
  CHECK(line("ll /tmp", o) == R"(list { simple ["ls"] ["-l"] ["/tmp"] })");
  CHECK(line("echo ll", o) == R"(list { simple ["echo"] ["ll"] })");
  CHECK(line("a; ll", o) == R"(list { simple ["a"]; simple ["ls"] ["-l"] })");
  CHECK(line("a | ll && ll", o) ==
        R"(list { and_or { pipeline { simple ["a"]; simple ["ls"] ["-l"] }; && { simple ["ls"] ["-l"] } } })");
  CHECK(line("if ll; then ll; fi", o) ==
        R"(list { if { cond { simple ["ls"] ["-l"] }; then { simple ["ls"] ["-l"] } } })");
  CHECK(line("x=1 ll", o) == R"(list { simple x=["1"] ["ls"] ["-l"] })");
  CHECK(line(">f ll", o) == R"(list { simple ["ls"] ["-l"] >["f"] })");
  CHECK(line("q", o) == R"(list { simple ['quoted word'] })");
  CHECK(line("$(ll)", o) == R"(list { simple [$(list { simple ["ls"] ["-l"] })] })");
  CHECK(line("`ll`", o) == R"(list { simple [`list { simple ["ls"] ["-l"] }`] })");
}

TEST_CASE("quoted words and reserved words are not aliased") {
  auto o = with_aliases({{"ll", "ls -l"}, {"if", "echo"}, {"x", "y"}});
  CHECK(line("\\ll", o) == R"(list { simple ['l' "l"] })");
  CHECK(line("'ll'", o) == R"(list { simple ['ll'] })");
  CHECK(line("if x; then x; fi", o) == R"(list { if { cond { simple ["y"] }; then { simple ["y"] } } })");
  CHECK(line("for ll in a; do :; done", o) == R"(list { for ll in ["a"] { do { simple [":"] } } })");
  CHECK(line("case ll in ll) :;; esac", o) == R"(list { case ["ll"] { item ["ll"] { simple [":"] } } })");
}

TEST_CASE("alias text can contain operators and compound commands") {
  auto o = with_aliases({{"both", "a; b"}, {"bg", "sleep 1 &"}, {"begin", "{"}, {"end", "}"},
                         {"loop", "while true; do"}});
  CHECK(line("both", o) == R"(list { simple ["a"]; simple ["b"] })");
  CHECK(line("bg", o) == R"(list { background { simple ["sleep"] ["1"] } })");
  CHECK(line("begin a; end", o) == R"(list { group { simple ["a"] } })");
  CHECK(line("loop x; done", o) == R"(list { while { cond { simple ["true"] }; do { simple ["x"] } } })");
}

TEST_CASE("recursion guard") {
  auto o = with_aliases({{"ls", "ls -F"}, {"a", "b"}, {"b", "a"}, {"self", "self self"}});
  CHECK(line("ls", o) == R"(list { simple ["ls"] ["-F"] })");
  CHECK(line("a", o) == R"(list { simple ["a"] })");
  CHECK(line("b", o) == R"(list { simple ["b"] })");
  CHECK(line("self", o) == R"(list { simple ["self"] ["self"] })");
  CHECK(line("ls; ls", o) == R"(list { simple ["ls"] ["-F"]; simple ["ls"] ["-F"] })");
}

TEST_CASE("trailing blank makes the next word eligible") {
  auto o = with_aliases({{"sudo", "sudo "}, {"ll", "ls -l"}, {"nb", "nice"}});
  CHECK(line("sudo ll", o) == R"(list { simple ["sudo"] ["ls"] ["-l"] })");
  CHECK(line("nb ll", o) == R"(list { simple ["nice"] ["ll"] })");
  CHECK(line("sudo sudo ll", o) == R"(list { simple ["sudo"] ["sudo"] ["ls"] ["-l"] })");
  CHECK(line("sudo ll ll", o) == R"(list { simple ["sudo"] ["ls"] ["-l"] ["ll"] })");
}

TEST_CASE("aliases are looked up when the command is parsed") {
  // A line-fed reader: the alias table changes between complete commands.
  auto table = std::make_shared<std::map<std::string, std::string, std::less<>>>();
  ParseOptions o;
  o.alias = [table](std::string_view n) -> const std::string* {
    auto it = table->find(n);
    return it == table->end() ? nullptr : &it->second;
  };
  Parser p("greet; greet\ngreet\n", o);
  auto i1 = p.next();
  REQUIRE(i1.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i1.command) == R"(list { simple ["greet"]; simple ["greet"] })");
  (*table)["greet"] = "echo hello";
  auto i2 = p.next();
  REQUIRE(i2.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i2.command) == R"(list { simple ["echo"] ["hello"] })");
}

TEST_CASE("alias bombs are bounded") {
  // Each alias expands to four copies of the next one, each ending in a blank.
  std::map<std::string, std::string, std::less<>> t;
  for (int i = 0; i < 20; ++i) {
    std::string next = "a" + std::to_string(i + 1) + " ";
    t["a" + std::to_string(i)] = next + next + next + next;
  }
  ParseResult r = parse("a0", with_aliases(t));
  REQUIRE(r.error);
  CHECK(r.error->message == "too many alias substitutions");
}
