// The builtin interface: one signature, one table. builtins/ fills the table at
// start-up (register_builtins); the interpreter looks names up here.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lash::exec {

class Shell;

// argv[0] is the builtin's name. Returns the exit status. Output goes through
// sh.out() / sh.err(), which are flushed when the builtin returns.
using BuiltinFn = int (*)(Shell& sh, std::vector<std::string>& argv);

enum class BuiltinKind : uint8_t {
  special,  // POSIX special builtin: found before functions; errors exit a script
  regular,
};

struct BuiltinDef {
  std::string_view name;
  BuiltinFn fn;
  BuiltinKind kind;
  // Profile capability the builtin needs (policy layer), empty when none.
  std::string_view capability;
  std::string_view summary;
};

// Adds rows to the table (names must be unique). Called once per family at start.
void register_builtins(std::span<const BuiltinDef> defs);
const BuiltinDef* find_builtin(std::string_view name);
std::vector<const BuiltinDef*> all_builtins();

}  // namespace lash::exec
