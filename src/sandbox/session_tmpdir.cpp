#include "sandbox/session_tmpdir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/strutil.h"
#include "base/unique_fd.h"
#include "sandbox/watchdog.h"

namespace lash::sandbox {
namespace {

// The pid namespace's inode: pids are only comparable within one (a container sharing
// /tmp with the host has its own).
unsigned long pid_namespace() {
  struct stat st;
  return ::stat("/proc/self/ns/pid", &st) == 0 ? static_cast<unsigned long>(st.st_ino) : 0;
}

// DIR opened if it is this user's own private directory (made now or by an earlier
// session), else invalid. Everything after goes through the fd: a directory swapped
// for a symlink after this check changes nothing.
unique_fd open_own_private_dir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return {};
  unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() ||
      (st.st_mode & 077) != 0)
    return {};
  return fd;
}

// A decimal number as lash writes it into a name (digits only).
bool parse_ulong(const std::string& s, unsigned long& out) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  auto v = str::parse_int(s);
  if (!v) return false;
  out = static_cast<unsigned long>(*v);
  return true;
}

// mkdtemp's job relative to DIRFD (there is no mkdtempat): PREFIX plus six random
// characters, 0700. Returns the name, "" with errno set.
std::string make_temp_dir_at(int dirfd, const std::string& prefix) {
  static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned char rnd[6];
    if (::getrandom(rnd, sizeof rnd, 0) != static_cast<ssize_t>(sizeof rnd)) return "";
    std::string name = prefix;
    for (unsigned char r : rnd) name += kChars[r % (sizeof kChars - 1)];
    if (::mkdirat(dirfd, name.c_str(), 0700) == 0) return name;
    if (errno != EEXIST) return "";
  }
  errno = EEXIST;
  return "";
}

}  // namespace

std::vector<std::string> stale_session_dirs(int dirfd, unsigned long ns, const std::string& keep) {
  std::vector<std::string> out;
  int fd = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // fdopendir takes it over
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
        !parse_ulong(name.substr(a + 1, b - a - 1), pid) || entry_ns != ns || pid == 0 || pid > 4194304 /* PID_MAX_LIMIT */)
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) out.push_back(name);
  }
  ::closedir(d);
  return out;
}

Result<std::string> make_session_tmpdir() {
  std::string uid = std::to_string(::getuid());
  std::string parent = "/tmp/lash-" + uid;
  unsigned long ns = pid_namespace();
  unique_fd pfd = ns == 0 ? unique_fd() : open_own_private_dir(parent);
  if (!pfd) {
    std::string tmpl = "/tmp/lash-" + uid + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return sys_error("cannot create the session tmpdir", tmpl, errno);
    return tmpl;  // mkdtemp makes it 0700
  }
  std::string name = make_temp_dir_at(pfd.get(), std::to_string(ns) + "-" + std::to_string(::getpid()) + "-");
  if (name.empty()) return sys_error("cannot create the session tmpdir", parent, errno);
  // Leftovers of sessions killed before their watchdog: removed as the watchdog would
  // have (no symlink followed), relative to the directory checked above.
  for (const std::string& stale : stale_session_dirs(pfd.get(), ns, name)) remove_tree_at(pfd.get(), stale);
  return parent + "/" + name;
}

}  // namespace lash::sandbox
