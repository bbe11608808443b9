// Files and directories the shell process itself opens for the user: builtin
// redirections, `.`, and the directory reads of pathname expansion. Under a sandbox
// they go through the session's fd broker (a sandboxed helper), so the kernel
// checks them exactly as it checks a child's opens, with no check-then-open gap.
#pragma once
#include <string>
#include <vector>

namespace lash::exec {

class Shell;

// Prepares the sandbox first (it is made on first use, and an open before the first
// fork must be checked too); when the profile needs a sandbox this kernel cannot give
// (enforcement = enforce), refuses with EACCES. A shell fd name (shell_fd_named) in
// a sandboxed session gives a copy of that descriptor of the script's, EBADF when the
// script has none. Returns an O_CLOEXEC fd, or -1 with errno set.
// FD_NAMES false: no name, nor link, is served as the script's descriptor; such a
// name is opened through the broker, which refuses it (ELOOP).
int open_user_path(Shell& sh, const std::string& path, int flags, bool fd_names = true);

// The file `. NAME` reads: NAME itself when it has a slash, else the first NAME in a
// PATH directory that open_user_path can open and is not a directory (POSIX: it need
// not be executable); "" when none is.
std::string find_dot_file(Shell& sh, const std::string& name);

// Reads a whole file through open_user_path. Returns 0 or an errno.
int read_user_file(Shell& sh, const std::string& path, std::string& text);

// The same for a file lash reads to inspect, not to run (`profile test` of a `.` file,
// `profile validate`): a regular file only, opened without blocking and without
// becoming lash's controlling terminal (a FIFO or a terminal would stall lash or take
// its input), at most MAX bytes (EFBIG beyond). With ONE_NAME, as policy files are
// read (store.h): not through a symlink (ELOOP) and not with a second hard link
// (EMLINK). A shell fd name in a sandboxed session is not read (that would consume
// the script's input): EINVAL. Returns 0 or an errno (EINVAL: not a regular file).
int read_user_regular_file(Shell& sh, const std::string& path, std::string& text, size_t max, bool one_name = false);

// The entry names of a directory (without . and ..) through open_user_path; false
// when it cannot be opened or read. The shape of pattern.h's ListDir.
bool list_user_dir(Shell& sh, const std::string& dir, std::vector<std::string>& names);

}  // namespace lash::exec
