// What lash reads about other processes from /proc/PID/stat. The command name in that
// file may hold any byte, ')' and spaces included (a process names itself): the
// fields are read after its last ')', never by a pattern that stops at the first.
#pragma once
#include <sys/types.h>

namespace lash::sandbox {

// The parent pid of PID, or -1 when it is gone or cannot be read.
pid_t parent_pid_of(pid_t pid);

// The state letter of PID (R, S, Z, ...), or '\0' when it is gone or cannot be read.
char state_of(pid_t pid);

}  // namespace lash::sandbox
