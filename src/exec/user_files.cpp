#include "exec/user_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/fileio.h"
#include "base/strutil.h"
#include "exec/fd_alias.h"
#include "exec/redirect.h"
#include "exec/session_view.h"
#include "exec/shell.h"
#include "exec/interp.h"
#include "policy/session_select.h"
#include "policy/store_snapshot.h"

namespace lash::exec {

namespace {

// A copy of the script's descriptor N, as N>&M would use it.
int copy_script_fd(int n) {
  if (!script_fd(n)) {  // lash's own descriptors are not the script's to name
    errno = EBADF;
    return -1;
  }
  return ::fcntl(n, F_DUPFD_CLOEXEC, 0);
}

}  // namespace

int open_user_path(Shell& sh, const std::string& path, int flags, bool fd_names) {
  if (int n = fd_names && sh.fd_names_are_shell_fds ? shell_fd_named(path) : -1; n >= 0) return copy_script_fd(n);
  // Another process's /proc entries do not exist for the session (session_view.h):
  // neither the broker's view of them nor the shell's own (fd_alias_target,
  // without_proc_self_links below) is asked.
  if (view_hides(sh, path)) {
    errno = ENOENT;
    return -1;
  }
  if (!sh.services().refusal().empty()) {
    errno = EACCES;  // fail closed: the kernel cannot check this open
    return -1;
  }
  // An open that blocks (a FIFO) is given up for a signal that should end it: the
  // shell ends by it, or its trap runs once this command has failed (as in dash).
  auto give_up = [&sh]() { return sh.signal_ends_blocking_call(); };
  int fd;
  if (sh.services().has_broker()) {
    int err = 0;
    fd = sh.services().open_for_user(path, flags, give_up, &err);
    // The broker refuses /proc's magic links (ELOOP), which would name its own
    // descriptors, and cannot see the shell's /proc/PID (ENOENT, a private /proc):
    // a name that leads to one of the shell's descriptors is served as its copy
    // (never under O_NOFOLLOW: the name's last part is a link), and one under the
    // shell's /proc/self/root or cwd is opened as the path it names.
    if (fd < 0 && (err == ELOOP || err == ENOENT) && sh.fd_names_are_shell_fds) {
      if (fd_names && !(flags & O_NOFOLLOW))
        if (int n = fd_alias_target(path); n >= 0) return copy_script_fd(n);
      if (std::string plain = without_proc_self_links(path); !plain.empty()) {
        fd = sh.services().open_for_user(plain, flags, give_up, &err);
        if (fd >= 0) return fd;
      }
    }
    if (fd < 0) errno = err;
  } else {
    do {
      fd = ::open(path.c_str(), flags | O_CLOEXEC, 0666);
    } while (fd < 0 && errno == EINTR && !give_up());
  }
  if (fd < 0 && errno == EINTR) {
    sh.exit_if_signal_ends_shell();
    errno = EINTR;
  }
  return fd;
}

std::string find_dot_file(Shell& sh, const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const std::string* path = sh.vars.get("PATH");
  if (!path) return "";
  for (const auto& dir : str::split(*path, ':')) {
    std::string cand = (dir.empty() ? std::string(".") : dir) + "/" + name;
    // Opened as `.` will read it, through the broker under a sandbox: a file the
    // session cannot read is not found (lash's own access() would tell whether it
    // exists), and a directory is skipped, as in dash. Without blocking on a FIFO.
    int fd = open_user_path(sh, cand, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) continue;
    struct stat st;
    bool usable = ::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode);
    ::close(fd);
    if (usable) return cand;
  }
  return "";
}

int read_user_regular_file(Shell& sh, const std::string& path, std::string& text, size_t max, bool one_name) {
  if (sh.fd_names_are_shell_fds && shell_fd_named(path) >= 0) return EINVAL;
  // Not a copy of the script's descriptor either (a link to /dev/stdin): reading it
  // to inspect would use up what the script reads.
  int fd = open_user_path(sh, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (one_name ? O_NOFOLLOW : 0),
                          /*fd_names=*/false);
  if (fd < 0) return errno;
  struct stat st;
  int err = ::fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : (one_name && st.st_nlink > 1) ? EMLINK : 0;
  if (!err) err = read_all_fd(fd, text, max + 1);
  if (!err && text.size() > max) err = EFBIG;
  ::close(fd);
  return err;
}

int read_user_file(Shell& sh, const std::string& path, std::string& text) {
  int fd = open_user_path(sh, path, O_RDONLY);
  if (fd < 0) return errno;
  // A pipe or FIFO may block: given up for a signal as the open is.
  int err = read_all_fd(fd, text, SIZE_MAX, [&sh] { return sh.signal_ends_blocking_call(); });
  ::close(fd);
  if (err == EINTR) sh.exit_if_signal_ends_shell();
  return err;
}

bool list_user_dir(Shell& sh, const std::string& dir, std::vector<std::string>& names) {
  int fd = open_user_path(sh, dir.empty() ? "." : dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return false;
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return false;
  }
  std::vector<std::string> listed;
  while (struct dirent* ent = ::readdir(d)) {
    const char* n = ent->d_name;
    if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'))) continue;
    listed.emplace_back(n);
  }
  // /proc lists other processes, which the session does not see (session_view.h).
  view_filter_listing(sh, ::dirfd(d), listed);
  ::closedir(d);
  for (auto& n : listed) names.push_back(std::move(n));
  return true;
}

}  // namespace lash::exec

namespace lash::exec {

void snapshot_profiles_for_subshell() {
  policy::SearchPath store = policy::session_search_path();
  policy::refresh_store_snapshot({store.user_dir(), store.system_dir()});
}

void use_profile_snapshot() { policy::use_store_snapshot(); }

}  // namespace lash::exec
