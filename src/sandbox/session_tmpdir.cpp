#include "sandbox/session_tmpdir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/watchdog.h"

namespace lash::sandbox {
namespace {

// The pid namespace's inode: pids are only comparable within one (a container sharing
// /tmp with the host has its own).
unsigned long pid_namespace() {
  struct stat st;
  return ::stat("/proc/self/ns/pid", &st) == 0 ? static_cast<unsigned long>(st.st_ino) : 0;
}

// Whether DIR is this user's own private directory (made now or by an earlier session).
bool own_private_dir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
  struct stat st;
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
         (st.st_mode & 077) == 0;
}

bool parse_ulong(const std::string& s, unsigned long& out) {
  if (s.empty() || s.size() > 19) return false;
  unsigned long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned long>(c - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::vector<std::string> stale_session_dirs(const std::string& dir, unsigned long ns, const std::string& keep) {
  std::vector<std::string> out;
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return out;
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return out;
  }
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    size_t a = name.find('-'), b = a == std::string::npos ? a : name.find('-', a + 1);
    unsigned long entry_ns = 0, pid = 0;
    if (b == std::string::npos || name == keep || !parse_ulong(name.substr(0, a), entry_ns) ||
        !parse_ulong(name.substr(a + 1, b - a - 1), pid) || entry_ns != ns || pid == 0 || pid > 4194304)
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) out.push_back(dir + "/" + name);
  }
  ::closedir(d);
  return out;
}

Result<std::string> make_session_tmpdir() {
  std::string uid = std::to_string(::getuid());
  std::string parent = "/tmp/lash-" + uid;
  unsigned long ns = pid_namespace();
  if (ns == 0 || !own_private_dir(parent)) {
    std::string tmpl = "/tmp/lash-" + uid + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return sys_error("cannot create the session tmpdir", tmpl, errno);
    return tmpl;  // mkdtemp makes it 0700
  }
  std::string name = std::to_string(ns) + "-" + std::to_string(::getpid()) + "-XXXXXX";
  std::string tmpl = parent + "/" + name;
  if (!::mkdtemp(tmpl.data())) return sys_error("cannot create the session tmpdir", tmpl, errno);
  // Leftovers of sessions killed before their watchdog: removed as the watchdog would
  // have (remove_tree follows no symlink).
  for (const std::string& stale : stale_session_dirs(parent, ns, tmpl.substr(parent.size() + 1))) remove_tree(stale);
  return tmpl;
}

}  // namespace lash::sandbox
