#include "exec/session_view.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <string_view>
#include <vector>

#include "base/strutil.h"
#include "base/unique_fd.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "sandbox/ns.h"

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
// job not yet reaped (running, or a zombie) still holds its pid. A job is named as `$!`
// gave it (Job::shown: the session's numbering where lash translates, else its pid);
// other processes of the session (the namespace's init, a job's children) are not the
// shell's, as for a program of the session, which sees only its own there.
bool shells_own(const Shell& sh, pid_t pid) {
  if (pid == ::getpid() || pid == sh.shell_pid) return true;
  for (const Job& j : sh.jobs)
    if (j.shown == pid && !j.done) return true;
  return false;
}

// lash itself stays in the host's pid namespace while its programs live in the
// session's: the script names their pids in the session's numbering ($!, what they
// print). So, in the lash that translates, /proc/N is looked up in the session's own
// /proc (through its O_PATH fd as /proc/self/fd/FD), where another process's entry
// does not exist, exactly as for the session's programs. "" when there is none.
std::string session_proc() {
  if (!sandbox::translates_pids()) return "";
  const sandbox::SessionNamespaceFds* ns = sandbox::session_namespaces();
  if (!ns || !ns->proc) return "";
  return "/proc/self/fd/" + std::to_string(ns->proc.get());
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
    str::push_path_components(todo, path);
    str::push_path_components(todo, cwd);
  } else {
    str::push_path_components(todo, path);
  }
  const std::string session = session_proc();
  // The directories walked so far, each as shown (a real path, no symlink in it) and
  // as looked up (the same, or beneath the session's /proc); the last is where the
  // walk is. Empty: at /. ".." is lexical, as the kernel's: one step back.
  struct Dir {
    std::string shown, lookup;
    bool proc_root;
  };
  std::vector<Dir> dirs;
  auto shown = [&dirs] { return dirs.empty() ? std::string() : dirs.back().shown; };
  auto lookup = [&dirs] { return dirs.empty() ? std::string() : dirs.back().lookup; };
  int links = 0;
  struct stat st;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      if (!dirs.empty()) dirs.pop_back();
      continue;
    }
    bool at_proc = !dirs.empty() && dirs.back().proc_root;
    std::string next_shown = shown() + "/" + c;
    std::string next = lookup() + "/" + c;
    pid_t pid;
    bool in_session_proc = false;
    if (at_proc && !session.empty() && (c == "self" || c == "thread-self")) {
      // lash's own entries, in the host's /proc where lash lives: entered as they are.
      if (::stat(next.c_str(), &st) != 0) return fail(errno);
      dirs.push_back({std::move(next_shown), next, false});
      continue;
    }
    if (at_proc && parse_pid(c, pid)) {
      if (!session.empty() && pid != sh.shell_pid && pid != ::getpid()) {
        // The session's process N, looked up where the session sees it.
        if (!shells_own(sh, pid)) return ViewWalk::hidden;
        next = session + "/" + c;
        in_session_proc = true;
      } else if (session.empty() && !shells_own(sh, pid)) {
        return ViewWalk::hidden;
      }
    }
    if (::lstat(next.c_str(), &st) != 0) {
      int e = errno;
      // Not a process of the session: ENOENT for it, whatever the host has.
      if (in_session_proc && e == ENOENT) return ViewWalk::hidden;
      if (e == ENOENT && todo.empty() && missing_last_ok) {
        *real = std::move(next_shown);
        return ViewWalk::ok;
      }
      return fail(e);
    }
    if (!S_ISLNK(st.st_mode)) {
      if (!todo.empty() && !S_ISDIR(st.st_mode)) return fail(ENOTDIR);
      dirs.push_back({std::move(next_shown), next, is_proc_root(next, st)});
      continue;
    }
    if (++links > kMaxLinks) return fail(ELOOP);
    char target[PATH_MAX];
    ssize_t n = ::readlink(next.c_str(), target, sizeof target);
    if (n < 0) return fail(errno);
    if (n == 0 || n >= static_cast<ssize_t>(sizeof target)) return fail(ENAMETOOLONG);
    std::string_view t(target, static_cast<size_t>(n));
    if (t[0] == '/') dirs.clear();
    str::push_path_components(todo, t);
  }
  *real = dirs.empty() ? "/" : dirs.back().shown;
  return ViewWalk::ok;
}

void view_filter_listing(const Shell& sh, int dir_fd, std::vector<std::string>& names) {
  if (!view_is_confined(sh)) return;
  struct stat st;
  struct statfs fs;
  if (::fstat(dir_fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_ino != kProcRootIno) return;
  if (::fstatfs(dir_fd, &fs) != 0 || fs.f_type != PROC_SUPER_MAGIC) return;
  const std::string session = session_proc();
  if (session.empty()) {
    std::erase_if(names, [&sh](const std::string& n) {
      pid_t pid;
      return parse_pid(n, pid) && !shells_own(sh, pid);
    });
    return;
  }
  // In a session with its own pid namespace the listing may be of either /proc: the
  // session's (read through the fd broker, which lives there) or the host's. Either
  // way what the script sees is what the walk above resolves: $$ and its jobs, the
  // jobs as `$!` numbered them.
  struct stat session_st;
  bool listed_in_session = ::stat(session.c_str(), &session_st) == 0 && session_st.st_dev == st.st_dev;
  std::erase_if(names, [&](const std::string& n) {
    pid_t pid;
    if (!parse_pid(n, pid)) return false;
    if (listed_in_session) return !shells_own(sh, pid);
    return true;  // the host's numbering: $$ and the jobs are added below
  });
  auto add = [&names](pid_t pid) {
    std::string name = std::to_string(pid);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  };
  add(sh.shell_pid);
  for (const Job& j : sh.jobs) {
    struct stat js;
    if (!j.done && j.shown > 0 && ::lstat((session + "/" + std::to_string(j.shown)).c_str(), &js) == 0) add(j.shown);
  }
}

bool view_path_exists(const Shell& sh, const std::string& path) {
  struct stat st;
  if (!session_proc().empty() && view_is_confined(sh)) {
    std::string real;
    int err = 0;
    return walk_session_path(sh, path, &real, &err) == ViewWalk::ok;
  }
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
