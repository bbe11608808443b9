#include "exec/output.h"

#include <cerrno>
#include <unistd.h>

namespace lash::exec {

bool write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    s.remove_prefix(size_t(n));
  }
  return true;
}

bool Output::flush() {
  if (buf_.empty()) return !failed_;
  if (!failed_ && !write_all(fd_, buf_)) failed_ = true;
  buf_.clear();
  return !failed_;
}

}  // namespace lash::exec
