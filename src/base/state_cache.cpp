#include "base/state_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

#include "base/file_size_limit.h"
#include "base/fileio.h"
#include "base/process_caps.h"
#include "base/unique_fd.h"

namespace lash::state_cache {
namespace {

struct Seen {
  bool exists = false;
  uint64_t dev = 0, ino = 0, mode = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  bool operator==(const Seen&) const = default;
};

int64_t ns_of(const struct timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

std::optional<Seen> look(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Seen{};
    return std::nullopt;
  }
  return Seen{true,
              static_cast<uint64_t>(st.st_dev),
              static_cast<uint64_t>(st.st_ino),
              static_cast<uint64_t>(st.st_mode),
              static_cast<uint64_t>(st.st_size),
              ns_of(st.st_mtim),
              ns_of(st.st_ctim)};
}

template <class T>
bool number(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// DIR opened only when it is this user's own and nobody else may write it: then
// nobody else can have put or replaced a file in it.
unique_fd open_own_dir(const std::string& dir) {
  unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  if (!fd || fstat(fd.get(), &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022)) return unique_fd();
  return fd;
}

}  // namespace

int64_t now_ns() {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return ns_of(t);
}

bool one_field(std::string_view s) { return s.find_first_of("\t\n\r") == std::string_view::npos; }

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

uint64_t hash_of(const std::vector<std::string>& parts) {
  uint64_t h = 1469598103934665603ull;
  for (const std::string& p : parts) {
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
    h = h * 1099511628211ull;  // the NUL after each: ["ab"] and ["a","b"] differ
  }
  return h;
}

std::optional<std::string> witness_line(const std::string& path, int64_t computed_at_ns) {
  std::optional<Seen> s = look(path);
  if (!s || !one_field(path) || path.empty()) return std::nullopt;
  if (s->exists && (s->mtime_ns >= computed_at_ns - kTickSlackNs || s->ctime_ns >= computed_at_ns - kTickSlackNs))
    return std::nullopt;
  return "W\t" + std::to_string(s->exists) + '\t' + std::to_string(s->dev) + '\t' + std::to_string(s->ino) + '\t' +
         std::to_string(s->mode) + '\t' + std::to_string(s->size) + '\t' + std::to_string(s->mtime_ns) + '\t' +
         std::to_string(s->ctime_ns) + '\t' + path;
}

bool witness_holds(const std::vector<std::string_view>& f, std::string* path) {
  if (f.size() != 9 || f[0] != "W" || f[8].empty()) return false;
  Seen want;
  int exists = 0;
  if (!number(f[1], exists) || exists < 0 || exists > 1 || !number(f[2], want.dev) || !number(f[3], want.ino) ||
      !number(f[4], want.mode) || !number(f[5], want.size) || !number(f[6], want.mtime_ns) ||
      !number(f[7], want.ctime_ns))
    return false;
  want.exists = exists == 1;
  std::string p(f[8]);
  std::optional<Seen> now = look(p);
  if (!now || !(*now == want)) return false;
  if (path) *path = std::move(p);
  return true;
}

void add_symlink_chain(const std::string& start, std::vector<std::string>& deps) {
  auto dirname_of = [](const std::string& p) {
    size_t s = p.rfind('/');
    return s == 0 ? std::string("/") : s == std::string::npos ? std::string(".") : p.substr(0, s);
  };
  std::string p = start;
  for (int i = 0; i < 40; ++i) {
    deps.push_back(dirname_of(p));
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
    char buf[PATH_MAX];
    ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
    if (n <= 0 || static_cast<size_t>(n) >= sizeof buf) break;
    std::string t(buf, static_cast<size_t>(n));
    p = t[0] == '/' ? t : dirname_of(p) + "/" + t;
  }
}

std::string credentials() {
  std::vector<gid_t> groups(static_cast<size_t>(std::max(0, ::getgroups(0, nullptr))));
  int n = groups.empty() ? 0 : ::getgroups(static_cast<int>(groups.size()), groups.data());
  groups.resize(static_cast<size_t>(std::max(0, n)));
  std::sort(groups.begin(), groups.end());
  std::string out = std::to_string(geteuid()) + " " + std::to_string(getegid());
  for (gid_t g : groups) out += " " + std::to_string(g);
  // Root without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH is refused where root is not.
  if (auto caps = effective_capabilities()) out += " caps " + std::to_string(*caps);
  return out;
}

std::optional<std::string> read_file(const std::string& dir, const std::string& name, size_t max) {
  unique_fd dirfd = open_own_dir(dir);
  if (!dirfd) return std::nullopt;
  unique_fd fd(::openat(dirfd.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st;
  // One name only, as policy files: a second one could sit inside a writable grant,
  // where a sandboxed program would rewrite the next session's answer through it.
  if (!fd || fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) ||
      st.st_nlink != 1 || static_cast<uint64_t>(st.st_size) > max)
    return std::nullopt;
  std::string text;
  if (read_all_fd(fd.get(), text, max + 1) != 0 || text.size() > max) return std::nullopt;
  return text;
}

namespace {

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// At most kKeptFiles answers stay in DIR, the most recently written: a PATH that
// changes with every run (a fresh temporary directory on it) would otherwise leave a
// file per run. Runs only after a write, which is rare.
constexpr size_t kKeptFiles = 64;

void prune(int dirfd) {
  unique_fd listing(::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!listing) return;
  DIR* d = ::fdopendir(listing.get());
  if (!d) return;
  listing.release();  // closedir() closes it
  std::vector<std::pair<int64_t, std::string>> files;
  while (dirent* e = ::readdir(d)) {
    struct stat st;
    if (e->d_name[0] == '.' || ::fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    files.emplace_back(ns_of(st.st_mtim), e->d_name);
  }
  ::closedir(d);
  if (files.size() <= kKeptFiles) return;
  std::sort(files.begin(), files.end());
  for (size_t i = 0; i + kKeptFiles < files.size(); ++i) ::unlinkat(dirfd, files[i].second.c_str(), 0);
}

}  // namespace

void write_file(const std::string& dir, const std::string& name, const std::string& text) {
  unique_fd dirfd = open_own_dir(dir);
  if (!dirfd) {
    if (make_directories(dir, 0700) != 0) return;
    dirfd = open_own_dir(dir);
    if (!dirfd) return;
  }
  FileSizeLimitLifted lifted;  // a cache file is lash's, not the script's output
  std::string tmp = name + ".tmp." + std::to_string(getpid());
  // Written unnamed (O_TMPFILE) and named only once whole, so that a lash killed
  // meanwhile leaves nothing behind; a filesystem without O_TMPFILE gets the name first.
  unique_fd fd(::openat(dirfd.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
  if (fd) {
    std::string self = "/proc/self/fd/" + std::to_string(fd.get());
    if (!write_all(fd.get(), text) || ::linkat(AT_FDCWD, self.c_str(), dirfd.get(), tmp.c_str(), AT_SYMLINK_FOLLOW) != 0)
      return;
  } else {
    fd.reset(::openat(dirfd.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) return;
    if (!write_all(fd.get(), text)) {
      ::unlinkat(dirfd.get(), tmp.c_str(), 0);
      return;
    }
  }
  if (::close(fd.release()) != 0 || ::renameat(dirfd.get(), tmp.c_str(), dirfd.get(), name.c_str()) != 0) {
    ::unlinkat(dirfd.get(), tmp.c_str(), 0);
    return;
  }
  prune(dirfd.get());
}

}  // namespace lash::state_cache
