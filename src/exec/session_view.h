// The shell's own view of the file system, made to match what a program of the session
// sees. lash itself runs outside the sandbox, so its lstat, readlink and chdir look at
// the host's /proc, where another process's entries (/proc/PID/cwd, /proc/PID/fd/N,
// /proc/PID/root) lead into that process's files. A program of a sandboxed session
// sees its own /proc (private, hidepid, in the session's mount namespace; later its
// own pid namespace), where they do not exist. So, in a sandboxed session, a path the
// shell walks (cd, pwd, redirection planning and opens, test's file operators, the
// real paths the policy is shown) is resolved here as the kernel would, component by
// component, and a /proc/N of a process that is not the shell's own is ENOENT: not
// followed, not named. The shell's own are the shell itself, $$ and its jobs (what
// /proc/self, /proc/thread-self and $! lead to). Outside a sandbox (`default`)
// nothing changes: the shell sees what any shell sees.
//
// Opens are then made through the fd broker as before (user_files.h), which runs in
// the session's namespaces: what the broker refuses (outside the grants), the shell
// is refused too.
#pragma once
#include <string>
#include <vector>

namespace lash::exec {

class Shell;

// Whether this session's view differs from the host's: the profile needs a sandbox.
bool view_is_confined(const Shell& sh);

enum class ViewWalk {
  ok,      // resolved (REAL is set)
  hidden,  // passes through another process's /proc entry: ENOENT for the session
  failed,  // fails for another reason (errno of the lstat/readlink, e.g. ENOENT, EACCES)
};

// Resolves PATH (relative: from the current directory) following every symlink as
// open(2) would, through lstat and readlink only (nothing is opened), with the
// confined view's /proc rule whatever the session. REAL is absolute and has no
// symlink in it. With MISSING_LAST_OK, a last component that does not exist is ok
// (the name a redirection creates). *ERR is the errno of a failure.
ViewWalk walk_session_path(const Shell& sh, const std::string& path, std::string* real, int* err,
                           bool missing_last_ok = false);

// Whether the session would find PATH missing although the host has it: a confined
// session and walk_session_path says hidden. Cheap (no walk) when not confined.
bool view_hides(const Shell& sh, const std::string& path);

// A directory listing as the session sees it: when DIR_FD (the directory listed) is
// the root of a proc file system in a confined session, the names of other
// processes are dropped from NAMES.
void view_filter_listing(const Shell& sh, int dir_fd, std::vector<std::string>& names);

// Whether PATH exists (lstat) for the session: for pathname expansion's names that are
// not read from a listing (pattern.h PathExists).
bool view_path_exists(const Shell& sh, const std::string& path);

// chdir(2) as a program of the session would get it: in a confined session, PATH is
// walked, a hidden one is ENOENT, and the directory found is entered by its real path
// with no symlink followed (openat2 RESOLVE_NO_SYMLINKS, then fchdir), so a link
// swapped in after the walk cannot lead elsewhere. 0 or -1 with errno.
int view_chdir(const Shell& sh, const std::string& path);

// What the policy checks and names, as seen from the session: the program's real
// path (realpath, or PATH itself when it does not resolve) and a redirection's target
// (resolve_target_path). PATH itself, made absolute but not followed, when the
// session may not follow it, so that a refusal, or an audit record, does not name the
// file behind another process's /proc/PID/fd/N.
std::string view_real_or_same(const Shell& sh, const std::string& path);
std::string view_target_path(const Shell& sh, const std::string& path);

}  // namespace lash::exec
