#include "interactive/config_vars.h"

#include <cstdlib>

#include "exec/shell.h"
#include "policy/user_config.h"

namespace lash::interactive {

void apply_config_variables(exec::Shell& sh) {
  static constexpr struct {
    const char* key;
    const char* var;
  } kMap[] = {{"prompt.ps1", "PS1"}, {"history.size", "HISTSIZE"}, {"history.file_size", "HISTFILESIZE"}};
  std::vector<policy::ConfigValue> values = policy::effective_config();
  for (const auto& m : kMap) {
    if (::getenv(m.var)) continue;
    for (const auto& v : values)
      if (v.key == m.key) sh.vars.set(m.var, v.value);
  }
}

}  // namespace lash::interactive
