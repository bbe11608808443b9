#include "exec/idle_timeout.h"

#include "base/strutil.h"
#include "exec/session.h"
#include "exec/shell.h"

namespace lash::exec {

namespace {
constexpr int kMaxSeconds = 1000000;
}

int profile_idle_timeout() {
  Session* s = current_session();
  if (!s || !s->active) return 0;
  uint64_t v = s->active->values.idle_timeout.value;
  return v > uint64_t(kMaxSeconds) ? kMaxSeconds : int(v);
}

int idle_timeout_seconds(Shell& sh) {
  int user = 0;
  if (const std::string* t = sh.vars.get("TMOUT")) {
    auto n = str::parse_int(*t);
    if (n && *n > 0) user = *n < kMaxSeconds ? int(*n) : kMaxSeconds;
  }
  int profile = profile_idle_timeout();
  if (profile > 0 && (user == 0 || user > profile)) return profile;
  return user;
}

}  // namespace lash::exec
