// `set` options by letter and by name, shared by the command line and `set`.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::exec {
class Shell;

struct Options;
struct OptionInfo {
  std::string_view name;
  char letter;  // 0 when the option has no letter (pipefail)
  bool Options::*field;
};

// false if the letter/name is unknown.
bool set_short_option(Shell& sh, char letter, bool on);
bool set_long_option(Shell& sh, std::string_view name, bool on);
// Whether the long option NAME is on; nullopt for an unknown name ([[ -o ]]).
std::optional<bool> option_state(const Shell& sh, std::string_view name);
// `set -o` and `set +o` listings (dash's formats).
std::string list_options(const Shell& sh, bool as_commands);

}  // namespace lash::exec
