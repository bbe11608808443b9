#include "exec/options.h"
#include "exec/pattern.h"

#include <cstdio>

#include "exec/shell.h"

namespace lash::exec {
namespace {

constexpr OptionInfo kOptions[] = {
    {"errexit", 'e', &Options::errexit},   {"noglob", 'f', &Options::noglob},
    {"ignoreeof", 0, &Options::ignoreeof},             {"interactive", 'i', &Options::interactive},
    {"monitor", 'm', &Options::monitor},   {"noexec", 'n', &Options::noexec},
    {"stdin", 's', &Options::stdin_cmds},  {"xtrace", 'x', &Options::xtrace},
    {"verbose", 'v', &Options::verbose},   {"vi", 0, nullptr},
    {"emacs", 0, nullptr},                 {"noclobber", 'C', &Options::noclobber},
    {"allexport", 'a', &Options::allexport}, {"notify", 'b', nullptr},
    {"nounset", 'u', &Options::nounset},   {"privileged", 0, nullptr},
    {"nolog", 0, nullptr},
    {"debug", 0, nullptr},                 {"pipefail", 0, &Options::pipefail},
    {"nohighlight", 0, &Options::nohighlight},
    {"posix", 0, &Options::posix},
    {"errtrace", 'E', &Options::errtrace},  {"functrace", 'T', &Options::functrace},
};

void apply(Shell& sh, const OptionInfo& o, bool on) {
  if (!o.field) return;  // accepted for compatibility, no effect
  // -n is ignored by interactive shells (POSIX), so a typo cannot hang a terminal.
  if (o.field == &Options::noexec && sh.opt.interactive) return;
  sh.opt.*o.field = on;
  if (o.field == &Options::allexport) sh.vars.allexport = on;
  if (o.field == &Options::posix) pattern_caret_negates = !on;
}

}  // namespace

bool set_short_option(Shell& sh, char letter, bool on) {
  for (const auto& o : kOptions)
    if (o.letter == letter) {
      apply(sh, o, on);
      return true;
    }
  return false;
}

bool set_long_option(Shell& sh, std::string_view name, bool on) {
  for (const auto& o : kOptions)
    if (o.name == name) {
      apply(sh, o, on);
      return true;
    }
  return false;
}

std::optional<bool> option_state(const Shell& sh, std::string_view name) {
  for (const auto& o : kOptions)
    if (o.name == name) return o.field && sh.opt.*o.field;
  return std::nullopt;
}

std::string list_options(const Shell& sh, bool as_commands) {
  std::string out;
  if (!as_commands) out = "Current option settings\n";
  for (const auto& o : kOptions) {
    bool on = o.field && sh.opt.*o.field;
    char line[64];
    if (as_commands)
      std::snprintf(line, sizeof line, "set %co %.*s\n", on ? '-' : '+', int(o.name.size()), o.name.data());
    else
      std::snprintf(line, sizeof line, "%-16.*s%s\n", int(o.name.size()), o.name.data(), on ? "on" : "off");
    out += line;
  }
  return out;
}

}  // namespace lash::exec
