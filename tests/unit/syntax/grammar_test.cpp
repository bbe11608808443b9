// Lists, pipelines, compound commands, function definitions, Parser::next().
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;
namespace ast = lash::ast;

TEST_CASE("lists and separators") {
  CHECK(line("a; b & c") == R"(list { simple ["a"]; background { simple ["b"] }; simple ["c"] })");
  CHECK(line("a &") == R"(list { background { simple ["a"] } })");
  CHECK(line("a;") == R"(list { simple ["a"] })");
  CHECK(line("a\n\nb\n") == R"(list { simple ["a"]; simple ["b"] })");
  CHECK(line("a &&\n\n b ||\n c") ==
        R"(list { and_or { simple ["a"]; && { simple ["b"] }; || { simple ["c"] } } })");
  CHECK(line("a |\n b") == R"(list { pipeline { simple ["a"]; simple ["b"] } })");
  auto p = parse_ok("a & b; c &");
  REQUIRE(p->items.size() == 3);
  CHECK(p->items[0].background);
  CHECK_FALSE(p->items[1].background);
  CHECK(p->items[2].background);
}

TEST_CASE("pipelines and bang") {
  CHECK(line("! a | b") == R"(list { pipeline ! { simple ["a"]; simple ["b"] } })");
  CHECK(line("! a && ! b") ==
        R"(list { and_or { pipeline ! { simple ["a"] }; && { pipeline ! { simple ["b"] } } } })");
  CHECK(line("! { a; }") == R"(list { pipeline ! { group { simple ["a"] } } })");
  CHECK(line("echo !") == R"(list { simple ["echo"] ["!"] })");
  CHECK(line("a | ! b") == "ERROR: lash:1:5: syntax error: unexpected '!'");
  CHECK(line("! ! a") == "ERROR: lash:1:3: syntax error: unexpected '!'");
  CHECK(line("!") == "ERROR: lash:1:2: syntax error: unexpected end of file");
  auto p = parse_ok("! a | b | c");
  const auto& pl = p->items.at(0).and_or.first;
  CHECK(pl.bang);
  CHECK(pl.commands.size() == 3);
}

TEST_CASE("simple commands interleave words and redirects") {
  CHECK(line(">out a=1 echo <in hi 2>err there") ==
        R"(list { simple a=["1"] ["echo"] ["hi"] ["there"] >["out"] <["in"] 2>["err"] })");
  CHECK(line(">f") == R"(list { simple >["f"] })");
  CHECK(line("a=1 >f") == R"(list { simple a=["1"] >["f"] })");
  auto p = parse_ok("<a cmd >b");
  const auto& sc = first_simple(*p);
  REQUIRE(sc.redirects.size() == 2);
  CHECK(sc.redirects[0].op == ast::RedirOp::in);
  CHECK(sc.redirects[1].op == ast::RedirOp::out);
}

TEST_CASE("brace group and subshell") {
  CHECK(line("{ a; b; }") == R"(list { group { simple ["a"]; simple ["b"] } })");
  CHECK(line("{\na\nb\n}") == R"(list { group { simple ["a"]; simple ["b"] } })");
  CHECK(line("(a; b)") == R"(list { subshell { simple ["a"]; simple ["b"] } })");
  CHECK(line("((a))") == R"(list { subshell { subshell { simple ["a"] } } })");
  CHECK(line("(a) >f 2>&1") == R"(list { subshell { simple ["a"]; redirect >["f"]; redirect 2>&["1"] } })");
  CHECK(line("{ a; } <in | b") == R"(list { pipeline { group { simple ["a"]; redirect <["in"] }; simple ["b"] } })");
  CHECK(line("(a &)") == R"(list { subshell { background { simple ["a"] } } })");
  CHECK(line("{ }") == "ERROR: lash:1:3: syntax error: unexpected '}' (expecting a command before '}')");
  CHECK(line("()") == "ERROR: lash:1:2: syntax error: unexpected ')' (expecting a command before ')')");
  CHECK(line("{ a; } b") == "ERROR: lash:1:8: syntax error: unexpected 'b'");
  auto p = parse_ok("{ a; } >f");
  const auto& c = first_command(*p);
  CHECK(std::holds_alternative<ast::BraceGroup>(c.v));
  REQUIRE(c.redirects.size() == 1);
  CHECK(c.range.begin == 0);
  CHECK(c.range.end == 9);
}

TEST_CASE("if clauses") {
  CHECK(line("if a; then b; fi") == R"(list { if { cond { simple ["a"] }; then { simple ["b"] } } })");
  CHECK(line("if a\nthen\nb\nelif c; then d\nelse e\nfi") ==
        R"(list { if { cond { simple ["a"] }; then { simple ["b"] }; cond { simple ["c"] }; then { simple ["d"] }; else { simple ["e"] } } })");
  CHECK(line("if a; b; then c; fi") ==
        R"(list { if { cond { simple ["a"]; simple ["b"] }; then { simple ["c"] } } })");
  CHECK(line("if if a; then b; fi; then c; fi") ==
        R"(list { if { cond { if { cond { simple ["a"] }; then { simple ["b"] } } }; then { simple ["c"] } } })");
  CHECK(line("if then fi") == "ERROR: lash:1:4: syntax error: unexpected 'then' (expecting a command before 'then')");
  CHECK(line("if a; then fi") == "ERROR: lash:1:12: syntax error: unexpected 'fi' (expecting a command before 'fi')");
  CHECK(line("if a; then b; else fi") == "ERROR: lash:1:20: syntax error: unexpected 'fi' (expecting a command before 'fi')");
  CHECK(line("if a; fi") == "ERROR: lash:1:7: syntax error: unexpected 'fi' (expecting 'then')");
  auto p = parse_ok("if a; then b; elif c; then d; fi");
  const auto& ic = std::get<ast::IfClause>(first_command(*p).v);
  CHECK(ic.branches.size() == 2);
  CHECK_FALSE(ic.else_body);
}

TEST_CASE("while and until loops") {
  CHECK(line("while a; do b; done") == R"(list { while { cond { simple ["a"] }; do { simple ["b"] } } })");
  CHECK(line("until a\ndo\nb\ndone") == R"(list { until { cond { simple ["a"] }; do { simple ["b"] } } })");
  CHECK(line("while a; do b; done >f &") ==
        R"(list { background { while { cond { simple ["a"] }; do { simple ["b"] }; redirect >["f"] } } })");
  CHECK(line("while do done") == "ERROR: lash:1:7: syntax error: unexpected 'do' (expecting a command before 'do')");
  CHECK(line("while a; done") == "ERROR: lash:1:10: syntax error: unexpected 'done' (expecting 'do')");
  auto p = parse_ok("until false; do :; done");
  CHECK(std::get<ast::LoopClause>(first_command(*p).v).until);
}

TEST_CASE("for loops") {
  CHECK(line("for i in a b; do c; done") == R"(list { for i in ["a"] ["b"] { do { simple ["c"] } } })");
  CHECK(line("for i in; do c; done") == R"(list { for i in { do { simple ["c"] } } })");
  CHECK(line("for i; do c; done") == R"(list { for i { do { simple ["c"] } } })");
  CHECK(line("for i do c; done") == R"(list { for i { do { simple ["c"] } } })");
  CHECK(line("for i\ndo c; done") == R"(list { for i { do { simple ["c"] } } })");
  CHECK(line("for i\nin a\ndo c\ndone") == R"(list { for i in ["a"] { do { simple ["c"] } } })");
  CHECK(line("for i in do done; do c; done") ==
        R"(list { for i in ["do"] ["done"] { do { simple ["c"] } } })");
  CHECK(line("for i in $(seq 3) \"$@\"; do :; done") ==
        R"(list { for i in [$(list { simple ["seq"] ["3"] })] [dq(${@})] { do { simple [":"] } } })");
  CHECK(line("for 1 in a; do :; done") == "ERROR: lash:1:5: syntax error: bad for loop variable");
  // `do` is an ordinary word before the separator.
  CHECK(line("for i in a b do c; done") ==
        "ERROR: lash:1:20: syntax error: unexpected 'done' (expecting 'do')");
  CHECK(line("for i in a & do c; done") == "ERROR: lash:1:12: syntax error: unexpected '&' (expecting 'do')");
  auto p = parse_ok("for x; do :; done");
  const auto& fc = std::get<ast::ForClause>(first_command(*p).v);
  CHECK(fc.var == "x");
  CHECK_FALSE(fc.has_in);
  auto q = parse_ok("for x in; do :; done");
  CHECK(std::get<ast::ForClause>(first_command(*q).v).has_in);
}

TEST_CASE("case clauses") {
  CHECK(line("case x in a) b;; esac") == R"(list { case ["x"] { item ["a"] { simple ["b"] } } })");
  CHECK(line("case x in esac") == R"(list { case ["x"] })");
  CHECK(line("case x in\nesac") == R"(list { case ["x"] })");
  CHECK(line("case x\nin\n(a|b) c;;\n*) d\nesac") ==
        R"(list { case ["x"] { item ["a"] | ["b"] { simple ["c"] }; item ["*"] { simple ["d"] } } })");
  CHECK(line("case x in a) ;; b) esac") == R"(list { case ["x"] { item ["a"]; item ["b"] } })");
  CHECK(line("case x in a) b;& c) d;; esac") ==
        R"(list { case ["x"] { item ["a"] ;& { simple ["b"] }; item ["c"] { simple ["d"] } } })");
  CHECK(line("case x in (esac) a;; esac") == R"(list { case ["x"] { item ["esac"] { simple ["a"] } } })");
  CHECK(line("case x in in) a;; esac") == R"(list { case ["x"] { item ["in"] { simple ["a"] } } })");
  CHECK(line("case $x in \"a\"*|[bc]) :;; esac") ==
        R"(list { case [${x}] { item [dq('a') "*"] | ["[bc]"] { simple [":"] } } })");
  CHECK(line("case x in a) if b; then c; fi;; esac") ==
        R"(list { case ["x"] { item ["a"] { if { cond { simple ["b"] }; then { simple ["c"] } } } } })");
  CHECK(line("case x in a) b;; c) d;;\n\nesac >f") ==
        R"(list { case ["x"] { item ["a"] { simple ["b"] }; item ["c"] { simple ["d"] }; redirect >["f"] } })");
  CHECK(line("case x in a b) c;; esac") == "ERROR: lash:1:13: syntax error: unexpected 'b' (expecting ')')");
  CHECK(line("case x a) b;; esac") == "ERROR: lash:1:8: syntax error: unexpected 'a' (expecting 'in')");
  CHECK(line("case x in a) b; c) d;; esac") == "ERROR: lash:1:18: syntax error: unexpected ')' (expecting ';;')");
  CHECK(line("case x in ) a;; esac") == "ERROR: lash:1:11: syntax error: unexpected ')' (expecting 'esac')");
  auto p = parse_ok("case x in a) ;; b) c;& esac");
  const auto& cc = std::get<ast::CaseClause>(first_command(*p).v);
  REQUIRE(cc.items.size() == 2);
  CHECK_FALSE(cc.items[0].body);
  CHECK_FALSE(cc.items[0].fallthrough);
  CHECK(cc.items[1].body);
  CHECK(cc.items[1].fallthrough);
}

TEST_CASE("function definitions") {
  CHECK(line("f() { a; }") == R"(list { function f { group { simple ["a"] } } })");
  CHECK(line("f ( ) { a; }") == R"(list { function f { group { simple ["a"] } } })");
  CHECK(line("f()\n{\na\n}") == R"(list { function f { group { simple ["a"] } } })");
  CHECK(line("f() (a)") == R"(list { function f { subshell { simple ["a"] } } })");
  CHECK(line("f() if a; then b; fi") ==
        R"(list { function f { if { cond { simple ["a"] }; then { simple ["b"] } } } })");
  CHECK(line("f() { a; } >log 2>&1") ==
        R"(list { function f { group { simple ["a"]; redirect >["log"]; redirect 2>&["1"] } } })");
  // Like dash, a simple command is accepted as the body.
  CHECK(line("f() echo hi") == R"(list { function f { simple ["echo"] ["hi"] } })");
  CHECK(line("f() { a; }; f") == R"(list { function f { group { simple ["a"] } }; simple ["f"] })");
  CHECK(line("a-b() { :; }") == "ERROR: lash:1:1: syntax error: bad function name 'a-b'");
  CHECK(line("f(x) { :; }") == "ERROR: lash:1:3: syntax error: unexpected 'x' (expecting ')')");
  CHECK(line("echo a (b)") == "ERROR: lash:1:8: syntax error: unexpected '('");
  CHECK(line("a=1 f() { :; }") == "ERROR: lash:1:6: syntax error: unexpected '('");
  auto p = parse_ok("greet() { echo hi; }");
  const auto& fd = std::get<ast::FunctionDef>(first_command(*p).v);
  CHECK(fd.name == "greet");
  REQUIRE(fd.body);
  CHECK(std::holds_alternative<ast::BraceGroup>(fd.body->v));
}

TEST_CASE("ranges and lines of nodes") {
  auto p = parse_ok("a\n\nif b\nthen c\nfi\n");
  REQUIRE(p->items.size() == 2);
  const auto& ifc = p->items[1].and_or.first.commands.at(0);
  CHECK(ifc.range.line == 3);
  CHECK(ifc.range.begin == 3);
  CHECK(ifc.range.end == 17);
  const auto& ic = std::get<ast::IfClause>(ifc.v);
  CHECK(ic.branches.at(0).body->range.line == 4);
  ParseOptions o;
  o.first_line = 10;
  auto q = parse_ok("a\nb", o);
  CHECK(q->items.at(1).and_or.range.line == 11);
  CHECK(q->items.at(1).and_or.range.begin == 2);
  CHECK(q->items.at(1).and_or.range.end == 3);
}

TEST_CASE("Parser::next returns one complete command at a time") {
  std::string text = "a; b\n\n# comment\n  \nif x\nthen y\nfi\nc &\n";
  Parser p(text, {});
  auto i1 = p.next();
  REQUIRE(i1.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i1.command) == R"(list { simple ["a"]; simple ["b"] })");
  CHECK(p.offset() == 5);
  auto i2 = p.next();
  REQUIRE(i2.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i2.command) == R"(list { if { cond { simple ["x"] }; then { simple ["y"] } } })");
  CHECK(p.offset() == text.find("c &"));
  auto i3 = p.next();
  REQUIRE(i3.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i3.command) == R"(list { background { simple ["c"] } })");
  CHECK(p.next().kind == Parser::Item::Kind::end);
  CHECK(p.next().kind == Parser::Item::Kind::end);
  CHECK(p.offset() == text.size());
}

TEST_CASE("Parser::next stops at the first error and keeps reporting it") {
  Parser p("echo ok\nfi\necho never\n", {});
  CHECK(p.next().kind == Parser::Item::Kind::command);
  auto e = p.next();
  REQUIRE(e.kind == Parser::Item::Kind::error);
  CHECK(e.error.line == 2);
  CHECK(e.error.message == "unexpected 'fi'");
  auto e2 = p.next();
  CHECK(e2.kind == Parser::Item::Kind::error);
  CHECK(e2.error.message == e.error.message);
}

TEST_CASE("Parser::next with the last line unterminated") {
  Parser p("a\nb", {});
  CHECK(p.next().kind == Parser::Item::Kind::command);
  auto i = p.next();
  REQUIRE(i.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i.command) == R"(list { simple ["b"] })");
  CHECK(p.next().kind == Parser::Item::Kind::end);
}
