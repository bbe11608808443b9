// Notes about this machine (a missing cgroup controller) are the same for every
// session: said once per user and machine, then remembered in $LASH_HOME/notes-said,
// so a plain user is not warned at every start. `profile review --plan` still shows
// them. Notes about the profile (enforcement = warn, rules not enforced) are said
// every time.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "base/fileio.h"
#include "exec/output.h"
#include "base/unique_fd.h"
#include "policy/session_select.h"

namespace lash::exec {
namespace {

bool is_machine_note(const std::string& n) {
  for (const char* prefix : {"no writable cgroup v2:", "no pids controller:", "no memory controller:"})
    if (n.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string machine_id() {
  std::string id;
  unique_fd fd(::open("/etc/machine-id", O_RDONLY | O_CLOEXEC));
  if (fd) read_all_fd(fd.get(), id);
  if (id.empty()) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) id = host;
  }
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

}  // namespace

// True when NOTE should be said now (and it is remembered as said).
bool say_note_now(const std::string& note) {
  if (!is_machine_note(note)) return true;
  std::string home = policy::lash_home();
  std::string path = home + "/notes-said";
  std::string line = machine_id() + "\t" + note + "\n";
  std::string seen;
  {
    unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    struct stat st;
    if (fd && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 65536) read_all_fd(fd.get(), seen);
  }
  if (seen.find(line) != std::string::npos) return false;
  ::mkdir(home.c_str(), 0700);
  unique_fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (fd) (void)write_all(fd.get(), line);  // if it cannot be remembered, it is said again next time
  return true;
}

}  // namespace lash::exec
