#include "exec/session_view.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <string_view>

#include "base/strutil.h"
#include "base/unique_fd.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"

namespace lash::exec {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit on one lookup
constexpr ino_t kProcRootIno = 1;

// As /proc names processes: digits only, no leading zero ("01" is no entry there).
bool parse_pid(std::string_view s, pid_t& out) {
  if (s.empty() || s[0] < '1' || s[0] > '9') return false;
  auto v = str::parse_int(s);
  if (!v || *v > INT_MAX) return false;
  out = static_cast<pid_t>(*v);
  return true;
}

// The root of a proc file system, wherever it is mounted (a bind of /proc elsewhere
// leads to the same entries).
bool is_proc_root(const std::string& path, const struct stat& st) {
  if (!S_ISDIR(st.st_mode) || st.st_ino != kProcRootIno) return false;
  struct statfs fs;
  return ::statfs(path.empty() ? "/" : path.c_str(), &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

// The processes whose /proc entries the shell may follow: its own (a subshell's too),
// the main shell ($$) and its jobs ($!) not yet reaped. These are what a script names
// as its own; any other pid is another process's, outside the session or not the
// shell's to look into. A reaped job's pid may already be another process's: only a
// job not yet reaped (running, or a zombie) still holds its pid.
// The one place that decides which pids the session sees: when the session has a
// /proc of its own pid namespace, this is where it is asked instead.
bool shells_own(const Shell& sh, pid_t pid) {
  if (pid == ::getpid() || pid == sh.shell_pid) return true;
  for (const Job& j : sh.jobs)
    if (j.pid == pid && !j.done) return true;
  return false;
}

// PATH's components in front of what is left, in order.
void push_components(std::deque<std::string>& todo, std::string_view path) {
  std::deque<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) parts.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  todo.insert(todo.begin(), parts.begin(), parts.end());
}

std::string absolute_of(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (!::getcwd(cwd, sizeof cwd)) return path;
  return std::string(cwd) + "/" + path;
}

}  // namespace

bool view_is_confined(const Shell& sh) {
  // Set exactly when the profile needs a sandbox (session.cpp, activate_profile).
  return sh.fd_names_are_shell_fds;
}

ViewWalk walk_session_path(const Shell& sh, const std::string& path, std::string* real, int* err,
                           bool missing_last_ok) {
  auto fail = [err](int e) {
    *err = e;
    return ViewWalk::failed;
  };
  if (path.empty()) return fail(ENOENT);
  std::deque<std::string> todo;
  if (path[0] != '/') {
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd)) return fail(errno);
    push_components(todo, path);
    push_components(todo, cwd);
  } else {
    push_components(todo, path);
  }
  std::string at;  // the real directory walked so far; "" is /
  bool at_proc = false;
  int links = 0;
  struct stat st;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      // AT has no symlink in it: its parent is lexical, as the kernel's "..".
      size_t slash = at.rfind('/');
      at.resize(slash == std::string::npos ? 0 : slash);
      at_proc = ::lstat(at.empty() ? "/" : at.c_str(), &st) == 0 && is_proc_root(at, st);
      continue;
    }
    pid_t pid;
    if (at_proc && parse_pid(c, pid) && !shells_own(sh, pid)) return ViewWalk::hidden;
    std::string next = at + "/" + c;
    if (::lstat(next.c_str(), &st) != 0) {
      int e = errno;
      if (e == ENOENT && todo.empty() && missing_last_ok) {
        *real = std::move(next);
        return ViewWalk::ok;
      }
      return fail(e);
    }
    if (!S_ISLNK(st.st_mode)) {
      if (!todo.empty() && !S_ISDIR(st.st_mode)) return fail(ENOTDIR);
      at_proc = is_proc_root(next, st);
      at = std::move(next);
      continue;
    }
    if (++links > kMaxLinks) return fail(ELOOP);
    char target[PATH_MAX];
    ssize_t n = ::readlink(next.c_str(), target, sizeof target);
    if (n < 0) return fail(errno);
    if (n == 0 || n >= static_cast<ssize_t>(sizeof target)) return fail(ENAMETOOLONG);
    std::string_view t(target, static_cast<size_t>(n));
    if (t[0] == '/') {
      at.clear();
      at_proc = false;
    }
    push_components(todo, t);
  }
  *real = at.empty() ? "/" : at;
  return ViewWalk::ok;
}

void view_filter_listing(const Shell& sh, int dir_fd, std::vector<std::string>& names) {
  if (!view_is_confined(sh)) return;
  struct stat st;
  struct statfs fs;
  if (::fstat(dir_fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_ino != kProcRootIno) return;
  if (::fstatfs(dir_fd, &fs) != 0 || fs.f_type != PROC_SUPER_MAGIC) return;
  std::erase_if(names, [&sh](const std::string& n) {
    pid_t pid;
    return parse_pid(n, pid) && !shells_own(sh, pid);
  });
}

bool view_path_exists(const Shell& sh, const std::string& path) {
  struct stat st;
  return !view_hides(sh, path) && ::lstat(path.c_str(), &st) == 0;
}

bool view_hides(const Shell& sh, const std::string& path) {
  if (!view_is_confined(sh)) return false;
  std::string real;
  int err = 0;
  return walk_session_path(sh, path, &real, &err, /*missing_last_ok=*/true) == ViewWalk::hidden;
}

int view_chdir(const Shell& sh, const std::string& path) {
  if (!view_is_confined(sh)) return ::chdir(path.c_str());
  std::string real;
  int err = 0;
  switch (walk_session_path(sh, path, &real, &err)) {
    case ViewWalk::hidden: errno = ENOENT; return -1;
    case ViewWalk::failed: errno = err; return -1;
    case ViewWalk::ok: break;
  }
  struct open_how how {};
  how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_NO_SYMLINKS;
  long fd = ::syscall(SYS_openat2, AT_FDCWD, real.c_str(), &how, sizeof how);
  // Kernels before 5.6 have no openat2 (and no Landlock, so no confined session runs
  // its programs there): the walked name, as chdir would take it.
  if (fd < 0 && errno == ENOSYS) return ::chdir(real.c_str());
  if (fd < 0) return -1;
  unique_fd dir(static_cast<int>(fd));
  return ::fchdir(dir.get());
}

std::string view_real_or_same(const Shell& sh, const std::string& path) {
  if (path.empty()) return path;
  if (view_hides(sh, path)) return absolute_of(path);
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf)) return buf;
  return path;
}

std::string view_target_path(const Shell& sh, const std::string& path) {
  if (view_hides(sh, path)) return absolute_of(path);
  return resolve_target_path(path);
}

}  // namespace lash::exec
