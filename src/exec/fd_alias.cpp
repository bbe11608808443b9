#include "exec/fd_alias.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <deque>
#include <string_view>

#include "base/strutil.h"

namespace lash::exec {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit on a lookup

// As /proc/PID/fd lists them: digits only, no leading zero ("01" is not there).
bool parse_number(std::string_view s, int& out) {
  if (s.empty() || s[0] < '0' || s[0] > '9' || (s.size() > 1 && s[0] == '0')) return false;
  auto v = str::parse_int(s);
  if (!v || *v > INT_MAX) return false;
  out = static_cast<int>(*v);
  return true;
}

// /proc/PID/fd or /proc/PID/task/PID/fd of this process, once /proc/self and
// /proc/thread-self were followed (they are plain symlinks to those).
bool own_fd_dir(const std::string& dir) {
  std::string pid = std::to_string(getpid());
  return dir == "/proc/" + pid + "/fd" || dir == "/proc/" + pid + "/task/" + pid + "/fd";
}

}  // namespace

int fd_alias_target(const std::string& path) {
  std::deque<std::string> todo;
  // "/proc/self/fd/1/" asks for a directory: the kernel says ENOTDIR.
  if (path.empty() || path.back() == '/') return -1;
  if (path[0] != '/') {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return -1;
    str::push_path_components(todo, path);
    str::push_path_components(todo, cwd);
  } else {
    str::push_path_components(todo, path);
  }
  std::string at;  // the directory walked so far; "" is /
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      at.resize(at.rfind('/') == std::string::npos ? 0 : at.rfind('/'));
      continue;
    }
    int fd;
    // The last name in a descriptor directory: a magic link, not followed here.
    if (todo.empty() && own_fd_dir(at) && parse_number(c, fd)) return fd;
    std::string next = at + "/" + c;
    struct stat st;
    if (lstat(next.c_str(), &st) != 0) return -1;
    if (!S_ISLNK(st.st_mode)) {
      if (!todo.empty() && !S_ISDIR(st.st_mode)) return -1;
      at = std::move(next);
      continue;
    }
    if (++links > kMaxLinks) return -1;
    char target[PATH_MAX];
    ssize_t n = readlink(next.c_str(), target, sizeof target);
    if (n <= 0 || n >= static_cast<ssize_t>(sizeof target)) return -1;
    std::string_view t(target, static_cast<size_t>(n));
    if (t[0] == '/') at.clear();
    str::push_path_components(todo, t);
  }
  return -1;
}

std::string without_proc_self_links(const std::string& path) {
  constexpr std::string_view proc = "/proc/";
  if (path.compare(0, proc.size(), proc) != 0) return "";
  std::string pid = std::to_string(getpid());
  // The spellings of this process's own /proc directory, longest first.
  for (const std::string& self : {std::string("thread-self"), "self/task/" + pid, pid + "/task/" + pid, std::string("self"), pid}) {
    std::string base = std::string(proc) + self + "/";
    if (path.compare(0, base.size(), base) != 0) continue;
    std::string rest = path.substr(base.size());
    size_t slash = rest.find('/');
    std::string link = rest.substr(0, slash), tail = slash == std::string::npos ? "" : rest.substr(slash);
    if (link == "root") return tail.empty() ? "/" : tail;
    if (link == "cwd") {
      char cwd[PATH_MAX];
      if (!getcwd(cwd, sizeof cwd)) return "";
      return std::string(cwd) + tail;
    }
    return "";
  }
  return "";
}

}  // namespace lash::exec
