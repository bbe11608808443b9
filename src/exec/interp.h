// Internal pieces of the interpreter shared between its .cpp files.
#pragma once
#include "exec/shell.h"

namespace lash::exec {

struct SimplePlan;

struct Interp {
  // Expands and resolves a simple command (including a `command` prefix). The real
  // run and the dry run both plan through here.
  static bool plan(Shell& sh, const ast::SimpleCommand& sc, SimplePlan& p, bool& via_command);
  static int run_simple(Shell& sh, const ast::SimpleCommand& sc, bool tail);
  static int run_if(Shell& sh, const ast::IfClause& n, bool tail);
  static int run_loop(Shell& sh, const ast::LoopClause& n);
  static int run_for(Shell& sh, const ast::ForClause& n);
  static int run_case(Shell& sh, const ast::CaseClause& n, bool tail);
  static int run_subshell(Shell& sh, const ast::Subshell& n, bool tail);
  static int run_background(Shell& sh, const ast::AndOr& ao);
  static int run_pipeline(Shell& sh, const ast::Pipeline& p);
};

}  // namespace lash::exec
