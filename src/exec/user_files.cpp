#include "exec/user_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/fileio.h"
#include "base/strutil.h"
#include "exec/shell.h"

namespace lash::exec {

int open_user_path(Shell& sh, const std::string& path, int flags) {
  sh.prepared();
  if (!sh.sandbox_refusal.empty()) {
    errno = EACCES;  // fail closed: the kernel cannot check this open
    return -1;
  }
  if (sh.open_for_user) {
    int err = 0;
    int fd = sh.open_for_user(path, flags, &err);
    if (fd < 0) errno = err;
    return fd;
  }
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

std::string find_dot_file(Shell& sh, const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const std::string* path = sh.vars.get("PATH");
  if (!path) return "";
  for (const auto& dir : str::split(*path, ':')) {
    std::string cand = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(cand.c_str(), R_OK) == 0) return cand;
  }
  return "";
}

int read_user_regular_file(Shell& sh, const std::string& path, std::string& text, size_t max, bool one_name) {
  int fd = open_user_path(sh, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (one_name ? O_NOFOLLOW : 0));
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
  int err = read_all_fd(fd, text);
  ::close(fd);
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
  while (struct dirent* ent = ::readdir(d)) {
    const char* n = ent->d_name;
    if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'))) continue;
    names.emplace_back(n);
  }
  ::closedir(d);
  return true;
}

}  // namespace lash::exec
