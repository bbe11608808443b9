// Where audit records go. A write failure is returned to the caller, which reports it on
// stderr (cli.md: never silently dropped).
#pragma once
#include <string>
#include <vector>

#include "audit/record.h"
#include "base/result.h"
#include "base/unique_fd.h"

namespace lash::audit {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual Result<void> write(const Record& record) = 0;
};

// JSON lines appended to a file ($LASH_HOME/audit.log), opened on first use with
// O_APPEND|O_CLOEXEC|O_NOFOLLOW and created 0600 (its directory 0700 if missing). Each
// record is one write(2), so records of concurrent sessions do not interleave.
class JsonlFileSink final : public Sink {
 public:
  explicit JsonlFileSink(std::string path);
  Result<void> write(const Record& record) override;
  Result<void> write_line(const std::string& line);
  // Opens the log now (the session does this before its first fork, so that
  // sandboxed subshells write through the inherited fd).
  Result<void> open_now() { return fd_ ? Result<void>{} : open(); }
  const std::string& path() const { return path_; }
  int fd() const { return fd_.get(); }  // -1 while not open

 private:
  Result<void> open();
  std::string path_;
  unique_fd fd_;
};

// Keeps records in memory (tests, `profile test` agreement runs). fail_with makes every
// write fail, to test the reporting path.
class MemorySink final : public Sink {
 public:
  Result<void> write(const Record& record) override;
  std::vector<Record> records;
  std::vector<std::string> lines;
  std::string fail_with;
};

// $LASH_HOME/audit.log
std::string audit_log_path(const std::string& lash_home);

}  // namespace lash::audit
