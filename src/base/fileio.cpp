#include "base/fileio.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "base/unique_fd.h"

namespace lash {

int read_all_fd(int fd, std::string& out, size_t max, const std::function<bool()>& give_up) {
  char buf[65536];
  while (out.size() < max) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      if (give_up && give_up()) return EINTR;
      continue;
    }
    if (n < 0) return errno;
    if (n == 0) return 0;
    out.append(buf, size_t(n));
  }
  return 0;
}

int read_whole_file(const std::string& path, std::string& out, size_t max) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return errno;
  return read_all_fd(fd.get(), out, max);
}

int read_regular_file(const std::string& path, std::string& out, size_t max) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd) return errno;
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  return read_all_fd(fd.get(), out, max);
}

int make_directories(const std::string& path, unsigned mode) {
  if (path.empty() || path[0] != '/') return EINVAL;
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = slash == std::string::npos ? path : path.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), static_cast<mode_t>(mode)) != 0 && errno != EEXIST) return errno;
    if (slash == std::string::npos) break;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return errno;
  return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

}  // namespace lash
