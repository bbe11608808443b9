#include "base/real_paths.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace lash {
namespace {

std::string real(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}

}  // namespace

RealPaths::RealPaths() {
  struct rlimit lim {};
  keep_fds_ = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur >= 256;
}

int RealPaths::dir_fd(const std::string& dir, bool* missing) {
  if (missing) *missing = false;
  if (!keep_fds_) return -1;
  auto it = dirs_.find(dir);
  if (it == dirs_.end()) {
    unique_fd fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!fd && errno != ENOENT && errno != ENOTDIR) {
      if (missing) *missing = false;
      return -1;
    }
    it = dirs_.emplace(dir, std::move(fd)).first;
  }
  if (missing) *missing = !it->second.valid();
  return it->second.get();
}

bool RealPaths::may_hold(const std::string& dir, const std::string& name) {
  auto it = listings_.find(dir);
  if (it == listings_.end()) {
    Listing l;
    int fd = dir_fd(dir);
    // Listed through the O_PATH fd when there is one, so the listing is of the same
    // directory the lookups use.
    int list_fd = fd >= 0 ? ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                          : ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (list_fd >= 0 && ::fstat(list_fd, &st) == 0 && st.st_size <= 16 * 1024) {
      if (DIR* d = ::fdopendir(list_fd)) {
        list_fd = -1;  // owned by D now
        errno = 0;
        while (dirent* e = ::readdir(d)) l.names.insert(e->d_name);
        l.listed = errno == 0;  // a failed read: look every name up instead
        ::closedir(d);
      }
    }
    if (list_fd >= 0) ::close(list_fd);
    if (!l.listed) l.names.clear();
    it = listings_.emplace(dir, std::move(l)).first;
  }
  return !it->second.listed || it->second.names.count(name) > 0;
}

RealPaths::Resolved RealPaths::full(const std::string& path) {
  std::string r = real(path);
  if (r.empty()) return {};
  size_t slash = r.rfind('/');
  if (slash == 0 && r.size() == 1) return {r, "/", "", -1};  // "/" itself
  std::string dir = slash == 0 ? "/" : r.substr(0, slash);
  return {r, dir, r.substr(slash + 1), dir_fd(dir)};
}

RealPaths::Resolved RealPaths::resolve(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos || path[0] != '/') return full(path);
  std::string leaf = path.substr(slash + 1);
  if (leaf.empty() || leaf == "." || leaf == "..") return full(path);
  std::string dir = slash == 0 ? "/" : path.substr(0, slash);
  auto it = dir_real_.find(dir);
  if (it == dir_real_.end()) it = dir_real_.emplace(dir, real(dir)).first;
  const std::string rdir = it->second;
  if (rdir.empty()) return {};
  int fd = dir_fd(rdir);
  if (fd < 0) return full(path);  // no fd to spare: realpath() by name
  for (int hops = 0; hops < 8; ++hops) {
    char target[PATH_MAX];
    ssize_t n = ::readlinkat(fd, leaf.c_str(), target, sizeof target - 1);
    int err = errno;
    std::string joined = (rdir == "/" ? "" : rdir) + "/" + leaf;
    if (n < 0) return err == EINVAL ? Resolved{joined, rdir, leaf, fd} : Resolved{};  // EINVAL: not a symlink
    std::string next(target, static_cast<size_t>(n));
    if (next.empty() || next.find('/') != std::string::npos || next == "." || next == "..") return full(joined);
    leaf = std::move(next);
  }
  return full(path);  // a long chain: realpath() decides (ELOOP and all)
}

}  // namespace lash
