// lash's own files (the audit log, cache files, the exported seccomp program) are not
// the script's output: a file-size limit lash runs under (a profile's max_file_size,
// or one it inherited with `ulimit -f`) must neither cut them short nor end lash.
// While one of these lives, the soft RLIMIT_FSIZE is raised to the hard one and
// SIGXFSZ is ignored, so a write past the hard limit fails with EFBIG (or is short)
// instead of killing lash. Single-threaded lash only: both are process-wide.
#pragma once
#include <signal.h>
#include <sys/resource.h>

namespace lash {

class FileSizeLimitLifted {
 public:
  FileSizeLimitLifted();
  ~FileSizeLimitLifted();
  FileSizeLimitLifted(const FileSizeLimitLifted&) = delete;
  FileSizeLimitLifted& operator=(const FileSizeLimitLifted&) = delete;

  // The limit still in force (the hard one), RLIM_INFINITY when none: a file written
  // meanwhile that reaches it may have been cut short.
  rlim_t limit() const { return limit_; }

 private:
  struct rlimit saved_limit_ {};
  bool limit_changed_ = false;
  struct sigaction saved_action_ {};
  bool action_changed_ = false;
  rlim_t limit_ = RLIM_INFINITY;
};

}  // namespace lash
