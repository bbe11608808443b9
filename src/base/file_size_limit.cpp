#include "base/file_size_limit.h"

namespace lash {

FileSizeLimitLifted::FileSizeLimitLifted() {
  if (::getrlimit(RLIMIT_FSIZE, &saved_limit_) == 0) {
    limit_ = saved_limit_.rlim_max;
    if (saved_limit_.rlim_cur != saved_limit_.rlim_max) {
      struct rlimit lifted = {saved_limit_.rlim_max, saved_limit_.rlim_max};
      limit_changed_ = ::setrlimit(RLIMIT_FSIZE, &lifted) == 0;
      if (!limit_changed_) limit_ = saved_limit_.rlim_cur;
    }
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  action_changed_ = ::sigaction(SIGXFSZ, &ignore, &saved_action_) == 0;
}

FileSizeLimitLifted::~FileSizeLimitLifted() {
  if (limit_changed_) ::setrlimit(RLIMIT_FSIZE, &saved_limit_);
  if (action_changed_) ::sigaction(SIGXFSZ, &saved_action_, nullptr);
}

}  // namespace lash
