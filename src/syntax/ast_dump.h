// A stable, readable dump of an AST, for `lash -n --dump-ast` and golden tests.
#pragma once
#include <string>

#include "syntax/ast.h"

namespace lash::syntax {
std::string dump(const ast::List& program);
}
