// A stable, readable dump of an AST, for `lash -n --dump-ast` and golden tests.
#pragma once
#include <string>

#include "syntax/ast.h"

namespace lash::syntax {
std::string dump(const ast::List& program);
// The same tree on one line ("list { a; b }"), handy for assertions in tests.
std::string dump_line(const ast::List& program);
}
