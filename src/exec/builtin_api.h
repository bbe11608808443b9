// The builtin interface: one signature, one table. builtins/ fills the table at
// start-up (register_builtins); the interpreter looks names up here.
//
// Every row declares its effects beside the builtin (issue 17): a function that
// parses argv exactly as the builtin does and says what it would do to the world, as
// policy Actions. The real run (policy_gate.cpp) checks them with the engine before
// the builtin runs; `profile test` (dry_run.cpp) reports the same ones. Neither knows
// any builtin by name.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/action.h"

namespace lash::exec {

class Shell;

// One effect of a command on the world, as the engine decides it.
struct PlannedAction {
  policy::Action action;
  // Only known at run time (a `$var` command name or a substitution in the dry
  // run): reported as "dynamic", never allowed by the dry run.
  bool dynamic = false;
  // Decided by the builtin itself while it runs, through the same engine, because
  // what it acts on is only known then (`kill PID`: is the process the session's
  // own?). Not checked before the builtin runs; the dry run reports it "dynamic".
  bool at_run_time = false;
};

// What a builtin does to how the rest of a program is read, for the dry run's static
// walk. The real run needs none of it: it runs the builtin.
struct WalkHints {
  // Shell text the builtin runs: now (eval), from a file (.), later (a trap).
  enum class Text : uint8_t { none, now, file, later };
  Text text = Text::none;
  std::string text_value;  // the text, the file operand, or the trap action
  bool changes_cwd = false;     // cd: later relative paths are the run's
  bool allexport = false;       // set -a: later assignments export
  bool later_unknown = false;   // profile switch/reload, alias: what follows is dynamic
  bool starts_editor = false;   // profile edit runs $VISUAL/$EDITOR (checked as it starts)
  std::vector<std::string> functions_removed;  // unset -f: the program may run again
  // The operands name variables the builtin changes with this operation: one that
  // comes from an expansion names a variable only the run knows.
  bool operands_are_variables = false;
  policy::EnvOp operand_op = policy::EnvOp::set;
};

struct BuiltinEffects {
  std::vector<PlannedAction> actions;  // in the order the builtin would take them
  WalkHints walk;
};

// argv[0] is the builtin's name. Returns the exit status. Output goes through
// sh.out() / sh.err(), which are flushed when the builtin returns.
using BuiltinFn = int (*)(Shell& sh, std::vector<std::string>& argv);
// The builtin's effects for this argv, computed without changing anything. Reads the
// shell's state (which variables are exported, PATH, the jobs).
using EffectsFn = BuiltinEffects (*)(Shell& sh, const std::vector<std::string>& argv);

enum class BuiltinKind : uint8_t {
  special,  // POSIX special builtin: found before functions; errors exit a script
  regular,
};

struct BuiltinDef {
  std::string_view name;
  BuiltinFn fn;
  // Right after fn, so a row written without it does not compile; register_builtins
  // refuses a null one.
  EffectsFn effects;
  BuiltinKind kind;
  std::string_view summary;
};

// Effects of a builtin that touches nothing outside the shell's own state.
BuiltinEffects no_effects(Shell& sh, const std::vector<std::string>& argv);

// Adds rows to the table (names must be unique; every row has an effects function,
// else the process aborts: a builtin must not skip the gate). Called once per family.
void register_builtins(std::span<const BuiltinDef> defs);
const BuiltinDef* find_builtin(std::string_view name);
std::vector<const BuiltinDef*> all_builtins();

}  // namespace lash::exec
