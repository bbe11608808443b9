// Quoting and expansions inside words.
#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;
namespace ast = lash::ast;

TEST_CASE("single and double quotes") {
  CHECK(word("x 'a b'") == R"(["x"] ['a b'])");
  CHECK(word("x ''") == R"(["x"] [''])");
  CHECK(word("x \"\"") == R"(["x"] [dq()])");
  CHECK(word("x a'b'\"c\"d") == R"(["x"] ["a" 'b' dq('c') "d"])");
  CHECK(word("x 'a''b'") == R"(["x"] ['ab'])");
  CHECK(word("x '$x \\ \"'") == R"(["x"] ['$x \\ "'])");
  CHECK(word("x \"'$x'\"") == R"(["x"] [dq('\'' ${x} '\'')])");
}

TEST_CASE("backslashes") {
  CHECK(word("x \\*") == R"(["x"] ['*'])");
  CHECK(word("x a\\ b") == R"(["x"] ["a" ' ' "b"])");
  CHECK(word("x \\\\") == R"(["x"] ['\\'])");
  // Inside double quotes only $ ` " \ newline are escapes.
  CHECK(word(R"(x "\$ \` \" \\ \a \*")") == R"(["x"] [dq('$ ` " \\ \\a \\*')])");
  // A backslash at the very end is literal.
  CHECK(word("x a\\") == R"(["x"] ["a" '\\'])");
}

TEST_CASE("glob characters keep their quotedness") {
  auto p = parse_ok("echo * \"*\" '*' \\*");
  const auto& words = first_simple(*p).words;
  REQUIRE(words.size() == 5);
  auto lit = [&](size_t i) { return std::get<ast::Literal>(words[i].parts.at(0).v); };
  CHECK_FALSE(lit(1).quoted);
  CHECK(lit(3).quoted);
  CHECK(lit(4).quoted);
  const auto& dq = std::get<ast::DoubleQuoted>(words[2].parts.at(0).v);
  CHECK(std::get<ast::Literal>(dq.parts.at(0).v).quoted);
}

TEST_CASE("simple parameters") {
  CHECK(word("x $a $abc_1 ${abc}") == R"(["x"] [${a}] [${abc_1}] [${abc}])");
  CHECK(word("x $1 $12 ${12}") == R"(["x"] [${1}] [${1} "2"] [${12}])");
  CHECK(word("x $@ $* $# $? $- $$ $! $0") ==
        R"(["x"] [${@}] [${*}] [${#}] [${?}] [${-}] [${$}] [${!}] [${0}])");
  CHECK(word("x $a.b") == R"(["x"] [${a} ".b"])");
  CHECK(word("x \"$a\"") == R"(["x"] [dq(${a})])");
}

TEST_CASE("a lone $ is literal") {
  CHECK(word("x $") == R"(["x"] ["$"])");
  CHECK(word("x a$ $.") == R"(["x"] ["a$"] ["$."])");
  CHECK(word("x \"$\"") == R"(["x"] [dq('$')])");
  CHECK(word("x $%") == R"(["x"] ["$%"])");
  CHECK(word("x \"a $ b\"") == R"(["x"] [dq('a $ b')])");
}

TEST_CASE("parameter operators") {
  CHECK(word("x ${a-w} ${a:-w}") == R"(["x"] [${a-["w"]}] [${a:-["w"]}])");
  CHECK(word("x ${a=w} ${a:=w}") == R"(["x"] [${a=["w"]}] [${a:=["w"]}])");
  CHECK(word("x ${a?w} ${a:?w}") == R"(["x"] [${a?["w"]}] [${a:?["w"]}])");
  CHECK(word("x ${a+w} ${a:+w}") == R"(["x"] [${a+["w"]}] [${a:+["w"]}])");
  CHECK(word("x ${a%w} ${a%%w}") == R"(["x"] [${a%["w"]}] [${a%%["w"]}])");
  CHECK(word("x ${a#w} ${a##w}") == R"(["x"] [${a#["w"]}] [${a##["w"]}])");
  CHECK(word("x ${#a} ${#} ${#1} ${#@} ${##}") == R"(["x"] [${#a}] [${#}] [${#1}] [${#@}] [${##}])");
  CHECK(word("x ${a:-}") == R"(["x"] [${a:-[]}])");
  CHECK(word("x ${#:-w} ${#-w}") == R"(["x"] [${#:-["w"]}] [${#-["w"]}])");
  CHECK(word("x ${10:-w} ${@:+w} ${?}") == R"(["x"] [${10:-["w"]}] [${@:+["w"]}] [${?}])");
  auto p = parse_ok("echo ${a:-w}");
  const auto& param = std::get<ast::Parameter>(first_simple(*p).words.at(1).parts.at(0).v);
  CHECK(param.name == "a");
  CHECK(param.op == ast::ParamOp::use_default);
  CHECK(param.colon);
  REQUIRE(param.arg);
}

TEST_CASE("parameter words nest and keep blanks") {
  CHECK(word("x ${a:-a b}") == R"(["x"] [${a:-["a b"]}])");
  CHECK(word("x ${a:-${b:-$c}}") == R"(["x"] [${a:-[${b:-[${c}]}]}])");
  CHECK(word("x ${a:-'q}'}") == R"(["x"] [${a:-['q}']}])");
  CHECK(word("x ${a:-\"q}\"}") == R"(["x"] [${a:-[dq('q}')]}])");
  CHECK(word("x ${a:-\\}}") == R"(["x"] [${a:-['}']}])");
  CHECK(word("x ${a:-$(echo })}") == R"(["x"] [${a:-[$(list { simple ["echo"] ["}"] })]}])");
  CHECK(word("x ${a#*}") == R"(["x"] [${a#["*"]}])");
  CHECK(word("x ${a#\"*\"}") == R"(["x"] [${a#[dq('*')]}])");
  CHECK(word("x ${a:-a\nb}") == R"(["x"] [${a:-["a\nb"]}])");
}

TEST_CASE("in double quotes the parameter word is in double-quote context") {
  CHECK(word("x \"${a:-b c}\"") == R"(["x"] [dq(${a:-['b c']})])");
  CHECK(word("x \"${a:-'b'}\"") == R"(["x"] [dq(${a:-['\'b\'']})])");
  CHECK(word("x \"${a:-*}\"") == R"(["x"] [dq(${a:-['*']})])");
  CHECK(word("x \"${a:-\\}}\"") == R"(["x"] [dq(${a:-['}']})])");
  CHECK(word("x \"${a:-~}\"") == R"(["x"] [dq(${a:-['~']})])");
  CHECK(word("x \"${a:-\"b\"}\"") == R"(["x"] [dq(${a:-[dq('b')]})])");
}

TEST_CASE("bad substitutions parse; their name is the text inside the braces") {
  // Like dash, they are errors only if expanded (scripts keep bash-only branches).
  CHECK(word("x ${}") == R"(["x"] [${}])");
  CHECK(word("x ${a.b}") == R"(["x"] [${a.b}])");
  CHECK(word("x ${a:1}") == R"(["x"] [${a:1}])");
  CHECK(word("x ${!a}") == R"(["x"] [${!a}])");
  CHECK(word("x ${#a-b}") == R"(["x"] [${#a-b}])");
  CHECK(word("x ${ a}") == R"(["x"] [${ a}])");
  CHECK(word("x \"$( cd \"$( dirname \"${BASH_SOURCE[0]}\" )\" && pwd )\"") ==
        R"(["x"] [dq($(list { and_or { simple ["cd"] [dq($(list { simple ["dirname"] [dq(${BASH_SOURCE[0]})] }))]; && { simple ["pwd"] } } }))])");
  // The rest is matched like a parameter word: quotes and nesting count.
  CHECK(word("x ${a[\"}\"]}b") == R"(["x"] [${a["}"]} "b"])");
  CHECK(word("x ${a[$(echo })]}") == R"(["x"] [${a[$(echo })]}])");
  auto p = parse_ok("echo ${a.b}");
  const auto& param = std::get<ast::Parameter>(first_simple(*p).words.at(1).parts.at(0).v);
  CHECK(param.name == "a.b");
  CHECK_FALSE(is_name(param.name));
  // Never mistaken for a valid parameter.
  for (const char* text : {"echo ${}", "echo ${\\\n}", "echo ${@@}", "echo ${1a}"}) {
    auto q = parse_ok(text);
    const auto& bp = std::get<ast::Parameter>(first_simple(*q).words.at(1).parts.at(0).v);
    CHECK_FALSE(is_name(bp.name));
    CHECK((bp.name.empty() || bp.name.find_first_not_of("0123456789") != std::string::npos));
    CHECK_FALSE((bp.name.size() == 1 && std::string_view("@*#?-$!").find(bp.name[0]) != std::string_view::npos));
  }
  // Unterminated is still an (incomplete) syntax error.
  SyntaxError e = parse_err("echo ${a.b");
  CHECK(e.message == "missing '}'");
  CHECK(e.incomplete);
}

TEST_CASE("command substitution") {
  CHECK(word("x $(echo a)") == R"(["x"] [$(list { simple ["echo"] ["a"] })])");
  CHECK(word("x a$(b)c") == R"(["x"] ["a" $(list { simple ["b"] }) "c"])");
  CHECK(word("x $()") == R"(["x"] [$(list)])");
  CHECK(word("x $( )") == R"(["x"] [$(list)])");
  CHECK(word("x \"$(a \"b\")\"") == R"(["x"] [dq($(list { simple ["a"] [dq('b')] }))])");
  CHECK(word("x $(a; b\nc)") ==
        R"(["x"] [$(list { simple ["a"]; simple ["b"]; simple ["c"] })])");
  CHECK(word("x $(echo $(echo $(echo deep)))") ==
        R"(["x"] [$(list { simple ["echo"] [$(list { simple ["echo"] [$(list { simple ["echo"] ["deep"] })] })] })])");
  CHECK(word("x $(echo ')' \")\" \\))") ==
        R"(["x"] [$(list { simple ["echo"] [')'] [dq(')')] [')'] })])");
  CHECK(word("x $(# comment )\necho y)") ==
        R"(["x"] [$(list { simple ["echo"] ["y"] })])");
}

TEST_CASE("case inside $( )") {
  CHECK(word("x $(case a in a) echo a;; (b|c) echo bc;; esac)") ==
        R"(["x"] [$(list { case ["a"] { item ["a"] { simple ["echo"] ["a"] }; item ["b"] | ["c"] { simple ["echo"] ["bc"] } } })])");
  CHECK(word("x $(case a in a) echo a; esac)") ==
        R"(["x"] [$(list { case ["a"] { item ["a"] { simple ["echo"] ["a"] } } })])");
  CHECK(word("x \"$(case $1 in *) :;; esac)\"") ==
        R"(["x"] [dq($(list { case [${1}] { item ["*"] { simple [":"] } } }))])");
}

TEST_CASE("backquotes") {
  CHECK(word("x `echo a`") == R"(["x"] [`list { simple ["echo"] ["a"] }`])");
  CHECK(word("x ``") == R"(["x"] [`list`])");
  CHECK(word("x a`b`c") == R"(["x"] ["a" `list { simple ["b"] }` "c"])");
  // \$ \` \\ lose their backslash; others keep it.
  CHECK(word("x `echo \\$a \\\\\\\\ \\x`") == R"(["x"] [`list { simple ["echo"] [${a}] ['\\'] ['x'] }`])");
  CHECK(word("x `echo \\$a \\\\ \\x`") == R"(["x"] [`list { simple ["echo"] [${a}] [' x'] }`])");
  CHECK(word("x `echo \\`echo nested\\``") ==
        R"(["x"] [`list { simple ["echo"] [`list { simple ["echo"] ["nested"] }`] }`])");
  // Inside double quotes \" is unescaped too.
  CHECK(word("x \"`echo \\\"a\\\"`\"") == R"(["x"] [dq(`list { simple ["echo"] [dq('a')] }`)])");
  CHECK(word("x `echo '`'") == "ERROR: lash:1:9: syntax error: unterminated quoted string");
  CHECK(word("x `a\\\nb`") == R"(["x"] [`list { simple ["ab"] }`])");
  auto p = parse_ok("x `y`");
  const auto& cs = std::get<ast::CommandSubst>(first_simple(*p).words.at(1).parts.at(0).v);
  CHECK(cs.backquoted);
}

TEST_CASE("arithmetic expansion") {
  CHECK(word("x $((1+2))") == R"(["x"] [$((["1+2"]))])");
  CHECK(word("x $(( (1+2) * $a ))") == R"(["x"] [$(([" (1+2) * " ${a} " "]))])");
  CHECK(word("x $((a[$(b)]))") == R"(["x"] [$((["a[" $(list { simple ["b"] }) "]"]))])");
  CHECK(word("x \"$((1))\"") == R"(["x"] [dq($((["1"])))])");
  CHECK(word("x $(($(($a))+1))") == R"(["x"] [$(([$(([${a}])) "+1"]))])");
  CHECK(word("x $((~1))") == R"(["x"] [$((["~1"]))])");
  CHECK(word("x $((\n1\n))") == R"(["x"] [$((["\n1\n"]))])");
  // $( (subshell) ...) is a command substitution.
  CHECK(word("x $((a) | b)") ==
        R"(["x"] [$(list { pipeline { subshell { simple ["a"] }; simple ["b"] } })])");
  CHECK(word("x $( (a) )") == R"(["x"] [$(list { subshell { simple ["a"] } })])");
  CHECK(word("x $((a); b)") == R"(["x"] [$(list { subshell { simple ["a"] }; simple ["b"] })])");
}

TEST_CASE("tilde prefixes") {
  CHECK(word("x ~") == R"(["x"] [~])");
  CHECK(word("x ~/a") == R"(["x"] [~ "/a"])");
  CHECK(word("x ~bob/a") == R"(["x"] [~bob "/a"])");
  CHECK(word("x ~bob") == R"(["x"] [~bob])");
  CHECK(word("x a~") == R"(["x"] ["a~"])");
  CHECK(word("x \\~") == R"(["x"] ['~'])");
  CHECK(word("x \"~\"") == R"(["x"] [dq('~')])");
  CHECK(word("x ~\"bob\"") == R"(["x"] ["~" dq('bob')])");
  CHECK(word("x ~$u") == R"(["x"] ["~" ${u}])");
  CHECK(word("x ~/\"a\"") == R"(["x"] [~ "/" dq('a')])");
  CHECK(word("x a:~") == R"(["x"] ["a:~"])");
  CHECK(word("x b=~") == R"(["x"] ["b=~"])");
  CHECK(word("x ${a:-~/b}") == R"(["x"] [${a:-[~ "/b"]}])");
  CHECK(line("a=~/x:~b:c~:~") == R"(list { simple a=[~ "/x:" ~b ":c~:" ~] })");
  CHECK(line("a=x:~") == R"(list { simple a=["x:" ~] })");
  CHECK(line("a=~:~") == R"(list { simple a=[~ ":" ~] })");
  CHECK(line("a='':~") == R"(list { simple a=['' ":" ~] })");
  CHECK(line("a=~'x'") == R"(list { simple a=["~" 'x'] })");
  CHECK(line("cd ~ >~/log") == R"(list { simple ["cd"] [~] >[~ "/log"] })");
  CHECK(line("for i in ~; do :; done") == R"(list { for i in [~] { do { simple [":"] } } })");
  CHECK(line("case ~ in ~) :;; esac") == R"(list { case [~] { item [~] { simple [":"] } } })");
}

TEST_CASE("word ranges") {
  auto p = parse_ok("echo  abc \"d e\"\nls");
  const auto& words = first_simple(*p).words;
  CHECK(words[0].range.begin == 0);
  CHECK(words[0].range.end == 4);
  CHECK(words[1].range.begin == 6);
  CHECK(words[1].range.end == 9);
  CHECK(words[2].range.begin == 10);
  CHECK(words[2].range.end == 15);
  CHECK(words[2].range.line == 1);
  const auto& second = std::get<ast::SimpleCommand>(p->items.at(1).and_or.first.commands.at(0).v);
  CHECK(second.words[0].range.begin == 16);
  CHECK(second.words[0].range.line == 2);
}
