// The readline init file (INPUTRC, else ~/.inputrc, else /etc/inputrc), read by lash
// itself through the session's file policy (exec/user_files.h), never by readline:
// readline would open any path an inputrc names, `$include /etc/shadow` included, and
// echo its lines in error messages. `$include` lines are resolved here, each read the
// same way; one the session cannot read is dropped with a warning naming it.
#pragma once
#include <string>

namespace lash::exec {
class Shell;
}

namespace lash::interactive {

// The init text with every `$include` replaced by the file's text (at most 8 deep,
// 1 MiB in all). Writes one warning line to standard error per include not read.
std::string load_inputrc(exec::Shell& sh);

}  // namespace lash::interactive
