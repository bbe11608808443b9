// Shared helpers for the syntax unit tests.
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "syntax/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parser.h"

namespace lash::syntax::test {

// Parses `text` with parse(); fails the current test case on a syntax error.
ast::ListPtr parse_ok(std::string_view text, ParseOptions opts = {});
// One-line dump of parse(text); "ERROR: <render()>" on failure.
std::string line(std::string_view text, ParseOptions opts = {});
// The error of parse(text) (fails the test case if it parses).
SyntaxError parse_err(std::string_view text, ParseOptions opts = {});
// The one-line dump of one word: the only word of the only simple command.
std::string word(std::string_view text);

// First simple command of a program (fails the test case if it is not one).
const ast::SimpleCommand& first_simple(const ast::List& l);
const ast::Command& first_command(const ast::List& l);

// Alias table for ParseOptions::alias.
ParseOptions with_aliases(const std::map<std::string, std::string, std::less<>>& table);

}  // namespace lash::syntax::test
