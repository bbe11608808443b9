// The interactive keys of $LASH_HOME/config (and /etc/lash/lash.conf over them):
// prompt.ps1, history.size and history.file_size become PS1, HISTSIZE and
// HISTFILESIZE of an interactive shell, unless its environment already set them
// (what the user exported for this run wins; a startup file may still change them).
#pragma once

namespace lash::exec {
class Shell;
}

namespace lash::interactive {
void apply_config_variables(exec::Shell& sh);
}
