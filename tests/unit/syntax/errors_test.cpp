// Error messages, positions and the incomplete flag.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;

namespace {
// "LINE:COL: MESSAGE" plus " [incomplete]".
std::string err(std::string_view text) {
  SyntaxError e = parse_err(text);
  std::string s = std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
  if (e.incomplete) s += " [incomplete]";
  return s;
}
}  // namespace

TEST_CASE("render") {
  ParseOptions o;
  o.filename = "script.sh";
  ParseResult r = parse("echo ok\n  fi\n", o);
  REQUIRE(r.error);
  CHECK(r.error->render() == "script.sh:2:3: syntax error: unexpected 'fi'");
  CHECK(r.error->offset == 10);
  CHECK(r.error->filename == "script.sh");
}

TEST_CASE("wrong tokens are not incomplete") {
  CHECK(err("fi") == "1:1: unexpected 'fi'");
  CHECK(err("echo a; then") == "1:9: unexpected 'then'");
  CHECK(err(")") == "1:1: unexpected ')'");
  CHECK(err("a ;; b") == "1:3: unexpected ';;'");
  CHECK(err("a; ; b") == "1:4: unexpected ';'");
  CHECK(err("| a") == "1:1: unexpected '|'");
  CHECK(err("a && || b") == "1:6: unexpected '||'");
  CHECK(err("echo >") == "1:7: unexpected end of file (expecting a word) [incomplete]");
  CHECK(err("echo > ;") == "1:8: unexpected ';' (expecting a word)");
  CHECK(err("echo >\nfile") == "1:7: unexpected newline (expecting a word)");
  CHECK(err("if a; then b; done") == "1:15: unexpected 'done' (expecting 'fi')");
  CHECK(err("while a; do b; fi") == "1:16: unexpected 'fi' (expecting 'done')");
  CHECK(err("{ a; )") == "1:6: unexpected ')' (expecting '}')");
  CHECK(err("(a; }") == "1:5: unexpected '}' (expecting ')')");
  CHECK(err("echo $(a; fi)") == "1:11: unexpected 'fi' (expecting ')')");
  CHECK(err("in") == "1:1: unexpected 'in'");
}

TEST_CASE("positions on later lines") {
  CHECK(err("a\nb\n  c )") == "3:5: unexpected ')'");
  CHECK(err("if a\nthen\n  b\n  done") == "4:3: unexpected 'done' (expecting 'fi')");
  CHECK(err("echo \"a\nb\" )") == "2:4: unexpected ')'");
  CHECK(err("cat <<E\nx\nE\n)") == "4:1: unexpected ')'");
  CHECK(err("echo a \\\n )") == "2:2: unexpected ')'");
}

TEST_CASE("end of text inside a construct is incomplete") {
  CHECK(err("echo 'abc") == "1:6: unterminated quoted string [incomplete]");
  CHECK(err("echo \"abc") == "1:6: unterminated quoted string [incomplete]");
  CHECK(err("echo \"$(a\"") == "1:10: unterminated quoted string [incomplete]");
  CHECK(err("echo $(a") == "1:9: unexpected end of file (expecting ')') [incomplete]");
  CHECK(err("echo `a") == "1:6: unterminated '`' [incomplete]");
  CHECK(err("echo ${a") == "1:6: missing '}' [incomplete]");
  CHECK(err("echo ${a:-b") == "1:6: missing '}' [incomplete]");
  CHECK(err("echo ${") == "1:6: missing '}' [incomplete]");
  CHECK(err("echo $((1+") == "1:6: unterminated arithmetic expansion [incomplete]");
  CHECK(err("if a") == "1:5: unexpected end of file (expecting 'then') [incomplete]");
  CHECK(err("if a; then b") == "1:13: unexpected end of file (expecting 'fi') [incomplete]");
  CHECK(err("if a; then b; else c") == "1:21: unexpected end of file (expecting 'fi') [incomplete]");
  CHECK(err("while a; do b") == "1:14: unexpected end of file (expecting 'done') [incomplete]");
  CHECK(err("for i in a") == "1:11: unexpected end of file (expecting 'do') [incomplete]");
  CHECK(err("case a in") == "1:10: unexpected end of file (expecting 'esac') [incomplete]");
  CHECK(err("case a in b) c") == "1:15: unexpected end of file (expecting ';;') [incomplete]");
  CHECK(err("case a in b) c;;") == "1:17: unexpected end of file (expecting 'esac') [incomplete]");
  CHECK(err("{ a") == "1:4: unexpected end of file (expecting '}') [incomplete]");
  CHECK(err("{ echo }") == "1:9: unexpected end of file (expecting '}') [incomplete]");
  CHECK(err("(a") == "1:3: unexpected end of file (expecting ')') [incomplete]");
  CHECK(err("a |") == "1:4: unexpected end of file [incomplete]");
  CHECK(err("a &&") == "1:5: unexpected end of file [incomplete]");
  CHECK(err("a ||\n") == "2:1: unexpected end of file [incomplete]");
  CHECK(err("f()") == "1:4: unexpected end of file [incomplete]");
  CHECK(line("echo a\\") == R"(list { simple ["echo"] ["a" '\\'] })");  // a trailing backslash alone is literal
}

TEST_CASE("a syntax error inside a closed backquote is not incomplete") {
  CHECK(err("echo `if a` b") == "1:11: unexpected end of file (expecting 'then')");
  CHECK(err("echo `echo \"a`") == "1:12: unterminated quoted string");
}

TEST_CASE("line continuation at the end of the text") {
  // parse() and text_is_complete: the end of the text is the end.
  CHECK(line("echo a \\\n") == R"(list { simple ["echo"] ["a"] })");
  // A line-fed reader gets "incomplete" and supplies the next line.
  Parser p("echo a \\\n", {});
  auto i = p.next();
  REQUIRE(i.kind == Parser::Item::Kind::error);
  CHECK(i.error.incomplete);
  ParseOptions o;
  o.text_is_complete = true;
  Parser q("echo a \\\n", o);
  CHECK(q.next().kind == Parser::Item::Kind::command);
}
