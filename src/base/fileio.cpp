#include "base/fileio.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "base/unique_fd.h"

namespace lash {

int read_all_fd(int fd, std::string& out, size_t max) {
  char buf[65536];
  while (out.size() < max) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
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

}  // namespace lash
