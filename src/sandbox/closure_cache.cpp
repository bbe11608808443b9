#include "sandbox/closure_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <string_view>

#include "base/fileio.h"
#include "base/unique_fd.h"

namespace lash::sandbox {
namespace {

constexpr std::string_view kHeader = "lash exec-closure cache 1";
constexpr int64_t kTickSlackNs = 2'000'000'000;  // see closure_cache.h, Staleness
constexpr size_t kMaxCacheBytes = 4u << 20;

// What a dependency looked like: absent, or these fields of its stat().
struct Seen {
  bool exists = false;
  uint64_t dev = 0, ino = 0, mode = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  bool operator==(const Seen&) const = default;
};

int64_t ns_of(const struct timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

// nullopt: it could not be examined (EACCES, ELOOP, ...), so a change behind it
// would go unseen.
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

bool one_line(std::string_view s) { return s.find_first_of("\t\n\r") == std::string_view::npos; }

char role_letter(ExecFile::Role r) {
  return r == ExecFile::Role::program ? 'p' : r == ExecFile::Role::interpreter ? 'i' : 'l';
}

std::optional<ExecFile::Role> role_of(std::string_view s) {
  if (s == "p") return ExecFile::Role::program;
  if (s == "i") return ExecFile::Role::interpreter;
  if (s == "l") return ExecFile::Role::library;
  return std::nullopt;
}

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

template <class T>
bool number(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

uint64_t fnv1a(const std::vector<std::string>& parts) {
  uint64_t h = 1469598103934665603ull;
  for (const std::string& p : parts) {
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0) * 1099511628211ull;  // the separator: ["ab"] and ["a","b"] differ
  }
  return h;
}

int64_t realtime_ns() {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return ns_of(t);
}

// DIR opened only when it is this user's own and nobody else may write it: then
// nobody else can have put or replaced a file in it.
unique_fd open_own_dir(const std::string& dir) {
  unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  if (!fd || fstat(fd.get(), &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022)) return unique_fd();
  return fd;
}

std::optional<std::string> read_own_file(int dirfd, const std::string& name) {
  unique_fd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st;
  if (!fd || fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) ||
      static_cast<uint64_t>(st.st_size) > kMaxCacheBytes)
    return std::nullopt;
  std::string text;
  if (read_all_fd(fd.get(), text, kMaxCacheBytes + 1) != 0 || text.size() > kMaxCacheBytes) return std::nullopt;
  return text;
}

// Written whole under another name and renamed over: a reader sees the old file or
// the new one, never part of one. Failures only mean the next session computes again.
void write_own_file(int dirfd, const std::string& name, const std::string& text) {
  std::string tmp = name + ".tmp." + std::to_string(getpid());
  unique_fd fd(::openat(dirfd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) return;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  bool ok = done == text.size() && ::close(fd.release()) == 0;
  if (!ok || ::renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) != 0) ::unlinkat(dirfd, tmp.c_str(), 0);
}

}  // namespace

std::string closure_cache_file(const std::string& dir, const std::vector<std::string>& programs) {
  char name[32];
  std::snprintf(name, sizeof name, "closure-%016llx", static_cast<unsigned long long>(fnv1a(programs)));
  return dir + "/" + name;
}

std::optional<std::string> closure_cache_text(const std::vector<std::string>& programs, const ExecClosure& closure,
                                              int64_t computed_at_ns) {
  std::string out(kHeader);
  out += '\n';
  for (const std::string& p : programs) {
    if (!one_line(p)) return std::nullopt;
    out += "P\t" + p + '\n';
  }
  for (const std::string& d : closure.depends_on) {
    std::optional<Seen> s = look(d);
    if (!s || !one_line(d)) return std::nullopt;
    if (s->exists && (s->mtime_ns >= computed_at_ns - kTickSlackNs || s->ctime_ns >= computed_at_ns - kTickSlackNs))
      return std::nullopt;
    out += "W\t" + std::to_string(s->exists) + '\t' + std::to_string(s->dev) + '\t' + std::to_string(s->ino) + '\t' +
           std::to_string(s->mode) + '\t' + std::to_string(s->size) + '\t' + std::to_string(s->mtime_ns) + '\t' +
           std::to_string(s->ctime_ns) + '\t' + d + '\n';
  }
  for (const ExecFile& f : closure.files) {
    if (!one_line(f.path) || !one_line(f.needed_by)) return std::nullopt;
    out += std::string("F\t") + role_letter(f.role) + '\t' + f.path + '\t' + f.needed_by + '\n';
  }
  for (const ExecFile& f : closure.data_dirs) {
    if (!one_line(f.path) || !one_line(f.needed_by)) return std::nullopt;
    out += "D\t" + f.path + '\t' + f.needed_by + '\n';
  }
  for (const std::string& p : closure.problems) {
    if (!one_line(p)) return std::nullopt;
    out += "X\t" + p + '\n';
  }
  out += "end\n";
  return out;
}

std::optional<ExecClosure> closure_from_cache_text(const std::string& text, const std::vector<std::string>& programs) {
  std::string_view rest(text);
  auto next_line = [&](std::string_view& line) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return false;  // the last line ends with one too
    line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    return true;
  };
  std::string_view line;
  if (!next_line(line) || line != kHeader) return std::nullopt;
  ExecClosure c;
  size_t program = 0;
  bool ended = false;
  while (next_line(line)) {
    if (ended) return std::nullopt;  // nothing after "end"
    if (line == "end") {
      ended = true;
      continue;
    }
    std::vector<std::string_view> f = fields(line);
    if (f[0] == "P" && f.size() == 2) {
      // The same programs in the same order (a hash collision of the file name).
      if (program >= programs.size() || programs[program] != f[1]) return std::nullopt;
      ++program;
    } else if (f[0] == "W" && f.size() == 9) {
      Seen want;
      int exists = 0;
      if (!number(f[1], exists) || exists < 0 || exists > 1 || !number(f[2], want.dev) || !number(f[3], want.ino) ||
          !number(f[4], want.mode) || !number(f[5], want.size) || !number(f[6], want.mtime_ns) ||
          !number(f[7], want.ctime_ns) || f[8].empty())
        return std::nullopt;
      want.exists = exists == 1;
      std::optional<Seen> now = look(std::string(f[8]));
      if (!now || !(*now == want)) return std::nullopt;  // changed: compute again
      c.depends_on.emplace_back(f[8]);
    } else if (f[0] == "F" && f.size() == 4) {
      auto role = role_of(f[1]);
      if (!role || f[2].empty() || f[2][0] != '/') return std::nullopt;
      c.files.push_back({std::string(f[2]), *role, std::string(f[3])});
    } else if (f[0] == "D" && f.size() == 3) {
      if (f[1].empty() || f[1][0] != '/') return std::nullopt;
      c.data_dirs.push_back({std::string(f[1]), ExecFile::Role::library, std::string(f[2])});
    } else if (f[0] == "X" && f.size() == 2) {
      c.problems.emplace_back(f[1]);
    } else {
      return std::nullopt;
    }
  }
  if (!ended || !rest.empty() || program != programs.size() || c.depends_on.empty()) return std::nullopt;
  return c;
}

ExecClosure cached_exec_closure(const std::string& dir, const std::vector<std::string>& programs) {
  if (dir.empty()) return resolve_exec_closure(programs);
  std::string file = closure_cache_file(dir, programs);
  std::string name = file.substr(dir.size() + 1);
  unique_fd dirfd = open_own_dir(dir);
  if (dirfd)
    if (auto text = read_own_file(dirfd.get(), name))
      if (auto c = closure_from_cache_text(*text, programs)) return std::move(*c);
  int64_t started = realtime_ns();
  ExecClosure c = resolve_exec_closure(programs);
  if (!dirfd) {
    if (make_directories(dir, 0700) != 0) return c;
    dirfd = open_own_dir(dir);
    if (!dirfd) return c;
  }
  if (auto text = closure_cache_text(programs, c, started)) write_own_file(dirfd.get(), name, *text);
  return c;
}

}  // namespace lash::sandbox
