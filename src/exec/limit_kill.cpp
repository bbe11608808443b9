// Says which profile limit killed a program. The kernel ends a program that exceeds
// RLIMIT_CPU with SIGXCPU and one that writes past RLIMIT_FSIZE with SIGXFSZ; without
// a word the user sees only status 152 or 153 (dash at least says "Killed").
#include <signal.h>
#include <sys/resource.h>

#include "base/fileio.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "policy/explain.h"

namespace lash::exec {

void report_limit_kill(Shell& sh, const std::string& program, int status) {
  Session* s = current_session();
  if (!s || !s->active || status <= 128) return;
  const policy::Profile& p = s->active->values;
  int sig = status - 128;
  std::string what;
  const policy::Provenance* from = nullptr;
  if (sig == SIGXCPU && p.max_cpu_seconds.value) {
    what = "CPU time limit reached (max_cpu_seconds = " + std::to_string(p.max_cpu_seconds.value);
    from = &p.max_cpu_seconds.from;
  } else if (sig == SIGXFSZ && p.max_file_size.value) {
    what = "file size limit reached (max_file_size = " + std::to_string(p.max_file_size.value) + " bytes";
    from = &p.max_file_size.from;
  } else {
    return;
  }
  // Only when the profile's limit is the one in force: a lower `ulimit` the user set
  // is theirs to know (the limit lash runs with is what its children inherit).
  struct rlimit rl{};
  int res = sig == SIGXCPU ? RLIMIT_CPU : RLIMIT_FSIZE;
  uint64_t profile_limit = sig == SIGXCPU ? p.max_cpu_seconds.value : p.max_file_size.value;
  if (::getrlimit(res, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && uint64_t(rl.rlim_cur) < profile_limit) return;
  what += ", set at " + from->text() + ")";
  sh.flush_all();
  write_all(2, "lash: '" + policy::explain::display(program) + "' killed: " + what + "\n");
}

}  // namespace lash::exec
