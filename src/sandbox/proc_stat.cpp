#include "sandbox/proc_stat.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace lash::sandbox {
namespace {

// The state letter and parent pid of PID; false when unreadable.
bool read_stat(pid_t pid, char& state, pid_t& ppid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1024];  // pid, a name of at most 64 bytes (TASK_COMM_LEN), then numbers
  ssize_t n;
  do n = ::read(fd, buf, sizeof buf - 1);
  while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* close_paren = std::strrchr(buf, ')');
  int parent = -1;
  char st = '\0';
  if (!close_paren || std::sscanf(close_paren + 1, " %c %d", &st, &parent) != 2) return false;
  state = st;
  ppid = static_cast<pid_t>(parent);
  return true;
}

}  // namespace

pid_t parent_pid_of(pid_t pid) {
  char state;
  pid_t ppid;
  return read_stat(pid, state, ppid) ? ppid : -1;
}

char state_of(pid_t pid) {
  char state;
  pid_t ppid;
  return read_stat(pid, state, ppid) ? state : '\0';
}

}  // namespace lash::sandbox
