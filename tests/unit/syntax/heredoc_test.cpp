// Here-documents.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;
namespace ast = lash::ast;

TEST_CASE("unquoted delimiter: body in double-quote-like context") {
  CHECK(line("cat <<EOF\nhello $USER\n`date` $(id) $((1+1))\nEOF\n") ==
        R"(list { simple ["cat"] <<["EOF"] body=['hello ' ${USER} '\n' `list { simple ["date"] }` ' ' $(list { simple ["id"] }) ' ' $((["1+1"])) '\n'] })");
  // \$ \` \\ are escapes, \newline joins lines, \" and others stay as written.
  CHECK(line("cat <<E\n\\$a \\` \\\\ \\\" \\x 'q' \"d\"\nj\\\noin\nE\n") ==
        R"(list { simple ["cat"] <<["E"] body=['$a ` \\ \\" \\x \'q\' "d"\njoin\n'] })");
  CHECK(line("cat <<E\n${a:-\"x\"} ~\nE\n") ==
        R"(list { simple ["cat"] <<["E"] body=[${a:-[dq('x')]} ' ~\n'] })");
}

TEST_CASE("quoted delimiter: the body is one quoted literal") {
  for (const char* op : {"<<'EOF'", "<<\"EOF\"", "<<\\EOF", "<<E'O'F", "<<\"E\"OF"}) {
    std::string text = std::string("cat ") + op + "\n$a `b` \\$ \\\n\nEOF\n";
    auto p = parse_ok(text);
    const auto& r = first_simple(*p).redirects.at(0);
    CHECK(r.heredoc_quoted);
    REQUIRE(r.heredoc_body.parts.size() == 1);
    const auto& lit = std::get<ast::Literal>(r.heredoc_body.parts[0].v);
    CHECK(lit.quoted);
    CHECK(lit.text == "$a `b` \\$ \\\n\n");
    // The target keeps the delimiter as written.
    CHECK(std::get<ast::Literal>(r.target.parts.at(0).v).text == std::string(op).substr(2));
  }
  auto p = parse_ok("cat <<'E'\nE\n");
  const auto& r = first_simple(*p).redirects.at(0);
  REQUIRE(r.heredoc_body.parts.size() == 1);
  CHECK(std::get<ast::Literal>(r.heredoc_body.parts[0].v).text.empty());
}

TEST_CASE("several here-documents on one line, read in order") {
  CHECK(line("cat <<A; cat <<B <<-C\na\nA\nb\nB\n\tc\n\tC\necho after\n") ==
        R"(list { simple ["cat"] <<["A"] body=['a\n']; simple ["cat"] <<["B"] body=['b\n'] <<-["C"] body=['c\n']; simple ["echo"] ["after"] })");
  CHECK(line("a <<X | b <<Y\nx\nX\ny\nY\n") ==
        R"(list { pipeline { simple ["a"] <<["X"] body=['x\n']; simple ["b"] <<["Y"] body=['y\n'] } })");
  CHECK(line("if a <<X; then\nx\nX\nb; fi") ==
        R"(list { if { cond { simple ["a"] <<["X"] body=['x\n'] }; then { simple ["b"] } } })");
  CHECK(line("{ a; } <<X\nx\nX\n") == R"(list { group { simple ["a"]; redirect <<["X"] body=['x\n'] } })");
  CHECK(line("f() { a; } <<X\nx\nX\n") ==
        R"(list { function f { group { simple ["a"]; redirect <<["X"] body=['x\n'] } } })");
}

TEST_CASE("<<- strips leading tabs from body lines and the delimiter line") {
  CHECK(line("cat <<-E\n\t\ta\n  b\n\t\tE\n") == R"(list { simple ["cat"] <<-["E"] body=['a\n  b\n'] })");
  CHECK(line("cat <<-'E'\n\ta $x\n\tE\n") == R"(list { simple ["cat"] <<-["'E'"] quoted body=['a $x\n'] })");
  // Without the dash the tabs stay and a tab-indented delimiter is not one.
  CHECK(line("cat <<E\n\ta\n\tE\nE\n") == R"(list { simple ["cat"] <<["E"] body=['\ta\n\tE\n'] })");
}

TEST_CASE("delimiter must match the whole line") {
  CHECK(line("cat <<E\nE \n E\nEE\nE\n") == R"(list { simple ["cat"] <<["E"] body=['E \n E\nEE\n'] })");
  // A continued line is not a delimiter line.
  CHECK(line("cat <<E\nfoo\\\nE\nE\n") == R"(list { simple ["cat"] <<["E"] body=['fooE\n'] })");
  // The delimiter line may end at the end of the text.
  CHECK(line("cat <<E\nx\nE") == R"(list { simple ["cat"] <<["E"] body=['x\n'] })");
}

TEST_CASE("here-documents inside command substitutions") {
  CHECK(line("echo $(cat <<E\ninner\nE\n) after") ==
        R"(list { simple ["echo"] [$(list { simple ["cat"] <<["E"] body=['inner\n'] })] ["after"] })");
  CHECK(line("echo $(cat <<E)\nbody\nE\n") ==
        R"(list { simple ["echo"] [$(list { simple ["cat"] <<["E"] body=['body\n'] })] })");
  CHECK(line("cat <<A\n$(cat <<B\nb\nB\n)\nA\n") ==
        R"(list { simple ["cat"] <<["A"] body=[$(list { simple ["cat"] <<["B"] body=['b\n'] }) '\n'] })");
  CHECK(line("echo `cat <<E\nx\nE\n`") ==
        R"(list { simple ["echo"] [`list { simple ["cat"] <<["E"] body=['x\n'] }`] })");
}

TEST_CASE("a here-document opened in a body's one-line substitution is empty (dash)") {
  const char* text = "cat <<EOF\na $(cat <<Z)\nzbody\nZ\nEOF\necho end\n";
  const char* want = R"(list { simple ["cat"] <<["EOF"] body=['a ' $(list { simple ["cat"] <<["Z"] body=[] }) '\nzbody\nZ\n']; simple ["echo"] ["end"] })";
  CHECK(line(text) == want);
  // In next() mode the first command is handed out (and may be freed) first.
  Parser p(text, {});
  auto i = p.next();
  REQUIRE(i.kind == Parser::Item::Kind::command);
  i.command.reset();
  auto j = p.next();
  REQUIRE(j.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*j.command) == R"(list { simple ["echo"] ["end"] })");
}

TEST_CASE("missing delimiter") {
  // parse(): the body runs to the end of the text, as in dash.
  CHECK(line("cat <<E\nabc\n") == R"(list { simple ["cat"] <<["E"] body=['abc\n'] })");
  CHECK(line("cat <<E") == R"(list { simple ["cat"] <<["E"] body=[] })");
  CHECK(line("cat <<'E'") == R"(list { simple ["cat"] <<["'E'"] quoted body=[''] })");
  // Parser::next(): incomplete, so a line-fed reader asks for more.
  for (const char* text : {"cat <<E\nabc\n", "cat <<E", "cat <<E\n", "cat <<'E'\nx"}) {
    Parser p(text, {});
    auto item = p.next();
    REQUIRE(item.kind == Parser::Item::Kind::error);
    CHECK(item.error.incomplete);
    CHECK(item.error.message == "unterminated here-document (expecting 'E')");
    CHECK(item.error.column == 5);
  }
  ParseOptions o;
  o.text_is_complete = true;
  Parser p("cat <<E\nabc\n", o);
  auto item = p.next();
  REQUIRE(item.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*item.command) == R"(list { simple ["cat"] <<["E"] body=['abc\n'] })");
}

TEST_CASE("missing delimiter word") {
  CHECK(line("cat <<") == "ERROR: lash:1:7: syntax error: unexpected end of file (expecting here-document delimiter)");
  CHECK(line("cat << ;") == "ERROR: lash:1:8: syntax error: unexpected ';' (expecting here-document delimiter)");
  CHECK(line("cat <<\nx") == "ERROR: lash:1:7: syntax error: unexpected newline (expecting here-document delimiter)");
  CHECK(line("cat <<#E\nx\nE\n") == "ERROR: lash:1:9: syntax error: unexpected newline (expecting here-document delimiter)");
  CHECK(line("cat << 2>&1\nx\n2\n") == "ERROR: lash:1:8: syntax error: unexpected redirection (expecting here-document delimiter)");
  CHECK(line("cat <<E#\nE#\n") == R"(list { simple ["cat"] <<["E#"] body=[] })");
  CHECK(line("cat <<2 >f\n2\n") == R"(list { simple ["cat"] <<["2"] body=[] >["f"] })");
}

TEST_CASE("here-document size limit") {
  ParseOptions o;
  o.max_heredoc_bytes = 10;
  CHECK(line("cat <<E\n123456789\nE\n", o) == R"(list { simple ["cat"] <<["E"] body=['123456789\n'] })");
  ParseResult r = parse("cat <<E\n1234567890\n1\nE\n", o);
  REQUIRE(r.error);
  CHECK(r.error->message == "here-document too large");
  r = parse("cat <<'E'\n12345\n123456\nE\n", o);
  REQUIRE(r.error);
  CHECK(r.error->message == "here-document too large");
}

TEST_CASE("here-document bodies in next() mode come with their command") {
  Parser p("cat <<E; echo b\nbody\nE\necho c\n", {});
  auto i = p.next();
  REQUIRE(i.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*i.command) == R"(list { simple ["cat"] <<["E"] body=['body\n']; simple ["echo"] ["b"] })");
  auto j = p.next();
  REQUIRE(j.kind == Parser::Item::Kind::command);
  CHECK(dump_line(*j.command) == R"(list { simple ["echo"] ["c"] })");
}
