// Buffered output of builtins to a file descriptor. Builtins never use stdio, so a
// fork never duplicates unflushed data; the buffer is flushed when a builtin ends.
#pragma once
#include <string>
#include <string_view>

namespace lash::exec {

class Output {
 public:
  explicit Output(int fd) : fd_(fd) {}
  ~Output() { flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  Output& operator<<(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= 8192) flush();
    return *this;
  }
  Output& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  Output& operator<<(long long v) { return *this << std::string_view(std::to_string(v)); }
  // false when a write failed (EPIPE, EBADF, ENOSPC...); errors stick until clear_error().
  bool flush();
  bool failed() const { return failed_; }
  // Each builtin starts with a clean slate (its own redirections may differ).
  void clear_error() { failed_ = false; }
  int fd() const { return fd_; }

 private:
  int fd_;
  std::string buf_;
  bool failed_ = false;
};

// Writes all of s to fd, retrying on EINTR and short writes.
bool write_all(int fd, std::string_view s);

}  // namespace lash::exec
