#include "audit/sink.h"

#include <sys/resource.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/file_size_limit.h"

namespace lash::audit {

std::string audit_log_path(const std::string& lash_home) { return lash_home + "/audit.log"; }

JsonlFileSink::JsonlFileSink(std::string path) : path_(std::move(path)) {}

Result<void> JsonlFileSink::open() {
  const int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;
  fd_.reset(::open(path_.c_str(), flags, 0600));
  keep_private(fd_);
  if (!fd_ && errno == ENOENT) {
    auto slash = path_.rfind('/');
    if (slash != std::string::npos && slash > 0) {
      std::string dir = path_.substr(0, slash);
      if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return sys_error("cannot create audit log directory", dir, errno);
      fd_.reset(::open(path_.c_str(), flags, 0600));
      keep_private(fd_);
    }
  }
  if (!fd_) return sys_error("cannot open audit log", path_, errno);
  return {};
}

// The audit log is lash's, not the script's, and grows past any file-size limit over
// many sessions (file_size_limit.h).
Result<void> JsonlFileSink::write_line(const std::string& line) {
  if (!fd_) {
    if (auto r = open(); !r) return r;
  }
  FileSizeLimitLifted lifted;
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_.get(), line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      fd_.reset();  // reopen next time (the file may have been rotated or fixed)
      return sys_error("cannot write audit log", path_, err);
    }
    done += size_t(n);
  }
  return {};
}

Result<void> JsonlFileSink::write(const Record& record) {
  auto line = record.to_line();
  if (!line) return line.error();
  return write_line(*line);
}

Result<void> MemorySink::write(const Record& record) {
  if (!fail_with.empty()) return Error{fail_with, "memory sink", 0, {}};
  auto line = record.to_line();
  if (!line) return line.error();
  records.push_back(record);
  lines.push_back(std::move(*line));
  return {};
}

}  // namespace lash::audit
