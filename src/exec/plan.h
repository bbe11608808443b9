// The plan of one simple command: everything that will happen, derived before
// anything runs (expanded argv, what the name resolves to, redirections,
// assignments). The policy layer checks exactly this plan; the runner executes it.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exec/builtin_api.h"
#include "exec/redirect.h"
#include "syntax/ast.h"

namespace lash::exec {

struct SimplePlan {
  enum class Kind {
    assignments_only,  // no command word: assignments (and redirections) only
    special_builtin,
    function,
    builtin,
    external,
    not_found,
  };
  Kind kind = Kind::assignments_only;
  std::vector<std::pair<std::string, std::string>> assigns;  // name, expanded value
  std::vector<std::string> argv;                             // expanded words
  const BuiltinDef* builtin = nullptr;                       // *builtin kinds
  std::shared_ptr<const ast::Command> function;              // Kind::function
  std::string path;                                          // Kind::external: resolved path
  std::vector<PlannedRedirect> redirects;
  // Kind::assignments_only from a command with no words: expanded and assigned one
  // at a time when run (each may see the previous one).
  const std::vector<ast::Assignment>* deferred_assigns = nullptr;
  // Dry run only: the command name came from an expansion, so what runs is only
  // known at run time.
  bool dynamic_name = false;
};

}  // namespace lash::exec
