// RAII owner of a file descriptor. Every open site in lash uses O_CLOEXEC; this type
// only guarantees the fd is closed exactly once.
#pragma once
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace lash {

class unique_fd {
 public:
  unique_fd() = default;
  explicit unique_fd(int fd) : fd_(fd) {}
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  unique_fd(unique_fd&& o) noexcept : fd_(o.release()) {}
  unique_fd& operator=(unique_fd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  ~unique_fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  explicit operator bool() const { return valid(); }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// lash's own long-lived descriptors live at 10 and above, out of the range a script
// names (0-9, `exec 3>f`, `cmd 4>&4`): a script can neither overwrite, close nor hand
// one of them to a program. Moves FD there (close-on-exec); unchanged if already
// there or if the move fails (the caller's fd stays valid either way).
inline void keep_private(unique_fd& fd) {
  constexpr int kFirstPrivateFd = 10;
  if (!fd || fd.get() >= kFirstPrivateFd) return;
  int high = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, kFirstPrivateFd);
  if (high >= 0) fd.reset(high);
}

}  // namespace lash
