#include "sandbox/session_registry.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "base/fileio.h"
#include "base/strutil.h"
#include "base/unique_fd.h"
#include "policy/session_select.h"

namespace lash::sandbox::registry {

namespace {

using nlohmann::json;

constexpr size_t kMaxEntry = 4096;

// A session id as lash makes them (hex and '-'): safe as a file name.
bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-')) return false;
  return true;
}

// DIR is this user's private directory: made 0700 if missing, then checked through an
// fd opened without following a link (owner, no group/other rights).
bool ensure_private(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
  unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  return fd && ::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
         (st.st_mode & 077) == 0;
}

bool owned_private(const std::string& dir) {
  unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  return fd && ::fstat(fd.get(), &st) == 0 && st.st_uid == ::getuid() && (st.st_mode & 077) == 0;
}

std::string read_small(const std::string& path, size_t max = 64 * 1024) {
  std::string s;
  if (read_whole_file(path, s, max) != 0) return {};
  return s;
}

struct Stat {
  pid_t ppid = 0;
  uint64_t ticks = 0;       // utime + stime
  uint64_t child_ticks = 0; // cutime + cstime
  uint64_t start = 0;
  bool ok = false;
};

// /proc/PID/stat, read after the last ')' (the command name may hold anything).
Stat read_stat(pid_t pid) {
  Stat s;
  std::string text = read_small("/proc/" + std::to_string(pid) + "/stat", 4096);
  size_t rp = text.rfind(')');
  if (rp == std::string::npos) return s;
  auto f = str::split(std::string_view(text).substr(rp + 2), ' ');
  // f[0] is field 3 (state): field N is f[N - 3].
  if (f.size() < 20) return s;
  auto num = [&](size_t field) { return std::strtoull(f[field - 3].c_str(), nullptr, 10); };
  s.ppid = pid_t(num(4));
  s.ticks = num(14) + num(15);
  s.child_ticks = num(16) + num(17);
  s.start = num(22);
  s.ok = true;
  return s;
}

uid_t uid_of(pid_t pid, bool* ok) {
  struct stat st;
  *ok = ::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0;
  return st.st_uid;
}

// The cgroup v2 path of PID ("/user.slice/.../lash-123"), "" if none.
std::string cgroup_of(pid_t pid) {
  for (auto& line : str::split(read_small("/proc/" + std::to_string(pid) + "/cgroup", 8192), '\n'))
    if (str::starts_with(line, "0::")) return line.substr(3);
  return {};
}

std::string cgroup2_mount() {
  for (auto& line : str::split(read_small("/proc/self/mounts", 1 << 20), '\n')) {
    auto f = str::split(line, ' ');
    if (f.size() > 2 && f[2] == "cgroup2") return f[1];
  }
  return {};
}

// A session cgroup lash made for process PID: named lash-PID or lash-PID-N.
bool is_session_cgroup(const std::string& path, pid_t pid) {
  std::string base = path.substr(path.rfind('/') + 1);
  std::string want = "lash-" + std::to_string(pid);
  return base == want || str::starts_with(base, want + "-");
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> out;
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir("/proc"), ::closedir);
  if (!d) return out;
  while (dirent* e = ::readdir(d.get())) {
    char* end;
    long v = std::strtol(e->d_name, &end, 10);
    if (*end == '\0' && v > 0) out.push_back(pid_t(v));
  }
  return out;
}

// Every value of the variables of PID's environment starting with PREFIX ("NAME=").
std::vector<std::string> env_values(pid_t pid, const std::string& prefix) {
  std::vector<std::string> out;
  std::string env = read_small("/proc/" + std::to_string(pid) + "/environ", 1 << 20);
  for (size_t pos = 0; pos < env.size();) {
    size_t end = env.find('\0', pos);
    if (end == std::string::npos) end = env.size();
    if (env.compare(pos, prefix.size(), prefix) == 0 && end - pos >= prefix.size())
      out.push_back(env.substr(pos + prefix.size(), end - pos - prefix.size()));
    pos = end + 1;
  }
  return out;
}

// The pid-namespace init lash forked for the session (a child of lash whose NSpid
// ends in 1), or 0.
pid_t namespace_init(pid_t child) {
  for (auto& line : str::split(read_small("/proc/" + std::to_string(child) + "/status", 8192), '\n'))
    if (str::starts_with(line, "NSpid:")) {
      auto f = str::split(line.substr(6), '\t');
      std::vector<std::string> ids;
      for (auto& x : f)
        if (!str::trim(x).empty()) ids.push_back(std::string(str::trim(x)));
      return ids.size() > 1 && ids.back() == "1" ? child : 0;
    }
  return 0;
}

std::vector<std::string> registry_dirs(bool all_users) {
  std::vector<std::string> dirs;
  std::string own = own_dir();
  if (!own.empty()) dirs.push_back(own);
  if (!all_users) return dirs;
  for (const char* pattern : {"/run/user/*/lash/sessions", "/tmp/lash-*/sessions"}) {
    glob_t g{};
    if (::glob(pattern, GLOB_NOSORT, nullptr, &g) == 0)
      for (size_t i = 0; i < g.gl_pathc && dirs.size() < 4096; ++i) dirs.push_back(g.gl_pathv[i]);
    ::globfree(&g);
  }
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (auto& d : dirs) {
    char* real = ::realpath(d.c_str(), nullptr);
    std::string r = real ? real : d;
    std::free(real);
    if (seen.insert(r).second) out.push_back(d);
  }
  return out;
}

std::optional<Entry> parse_entry(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    Entry e;
    e.id = j.at("id").get<std::string>();
    e.pid = j.at("pid").get<pid_t>();
    e.uid = j.at("uid").get<uid_t>();
    e.user = j.value("user", "");
    e.profile = j.value("profile", "");
    e.tty = j.value("tty", "");
    e.started = j.at("started").get<int64_t>();
    e.proc_start = j.at("proc_start").get<uint64_t>();
    if (!valid_id(e.id) || e.pid <= 1) return std::nullopt;
    return e;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

namespace {

std::string g_warning;       // said once per process (take_warning)
bool g_warning_taken = false;

// Why DIR (which exists) is not this user's private directory, "" when it is: a link,
// not a directory, another owner, or rights for others.
std::string why_not_private(const std::string& dir) {
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) return std::string("cannot be read (") + std::strerror(errno) + ")";
  if (S_ISLNK(st.st_mode)) return "is a symbolic link";
  if (!S_ISDIR(st.st_mode)) return "is not a directory";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  if (st.st_uid != ::getuid()) return "belongs to uid " + std::to_string(st.st_uid) + " (mode " + mode + ")";
  if (st.st_mode & 077) return std::string("has mode ") + mode + ", open to other users";
  return {};
}

// The last resort when the fixed places are taken: $LASH_HOME/run/sessions. LASH_HOME
// itself must be the user's and writable by no one else (it is made 0700).
std::string home_dir_fallback() {
  std::string home = policy::lash_home();
  if (home.empty() || home[0] != '/') return {};
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) return {};
  unique_fd fd(::open(home.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st;
  if (!fd || ::fstat(fd.get(), &st) != 0 || st.st_uid != ::getuid() || (st.st_mode & 022) != 0) return {};
  if (ensure_private(home + "/run") && ensure_private(home + "/run/sessions")) return home + "/run/sessions";
  return {};
}

}  // namespace

std::string own_dir() {
  uid_t uid = ::getuid();
  std::string base;
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  if (xdg && xdg[0] == '/' && owned_private(xdg)) base = xdg;
  else if (std::string run = "/run/user/" + std::to_string(uid); owned_private(run)) base = run;
  if (!base.empty() && ensure_private(base + "/lash") && ensure_private(base + "/lash/sessions"))
    return base + "/lash/sessions";
  std::string tmp = "/tmp/lash-" + std::to_string(uid);
  if (ensure_private(tmp) && ensure_private(tmp + "/sessions")) return tmp + "/sessions";
  // /tmp is shared: another user may have made /tmp/lash-UID (or its sessions/) first,
  // to hide this user's sessions from `session list` or plant entries. Never used
  // then; said once, and the registry is kept under $LASH_HOME instead.
  std::string why, which;
  for (const std::string& d : {tmp, tmp + "/sessions"}) {
    struct stat st;
    if (::lstat(d.c_str(), &st) != 0) continue;
    if (why = why_not_private(d); !why.empty()) {
      which = d;
      break;
    }
  }
  if (which.empty()) {
    which = tmp;
    why = std::string("cannot be made (") + std::strerror(errno) + ")";
  }
  std::string fallback = home_dir_fallback();
  if (g_warning.empty())
    g_warning = "lash: Problem: the session registry directory " + which + " " + why +
                ": it is not used, another user may have made it to hide or fake this user's sessions.\n"
                "Suggestion: remove it (or set XDG_RUNTIME_DIR to a private directory of yours); " +
                (fallback.empty() ? std::string("until then this session is not listed by 'session list' and cannot be "
                                                "found by 'session kill'.\n")
                                  : "until then the registry is " + fallback +
                                        ", shared only by sessions with the same LASH_HOME.\n");
  return fallback;
}

std::string take_warning() {
  if (g_warning_taken || g_warning.empty()) return {};
  g_warning_taken = true;
  return g_warning;
}

uint64_t proc_start_of(pid_t pid) { return read_stat(pid).start; }

Result<void> register_session(const Entry& e) {
  if (!valid_id(e.id)) return Error{"invalid session id", e.id, 0, {}};
  std::string dir = own_dir();
  if (dir.empty()) return Error{"no private directory for the session registry", {}, 0, {}};
  json j = {{"id", e.id},           {"pid", e.pid},         {"uid", e.uid},         {"user", e.user},
            {"profile", e.profile}, {"tty", e.tty},         {"started", e.started}, {"proc_start", e.proc_start}};
  std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  std::string tmp = dir + "/." + e.id + ".tmp";
  unique_fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) return sys_error("cannot write", tmp, errno);
  if (::write(fd.get(), text.data(), text.size()) != ssize_t(text.size())) {
    int err = errno;
    ::unlink(tmp.c_str());
    return sys_error("cannot write", tmp, err);
  }
  fd.reset();
  if (::rename(tmp.c_str(), (dir + "/" + e.id + ".json").c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return sys_error("cannot write", dir, err);
  }
  return {};
}

void unregister_session(const std::string& id) {
  if (!valid_id(id)) return;
  std::string dir = own_dir();
  if (!dir.empty()) ::unlink((dir + "/" + id + ".json").c_str());
}

std::vector<Live> list_sessions(bool all_users) {
  std::vector<Live> out;
  for (const std::string& dir : registry_dirs(all_users)) {
    struct stat dst;
    if (::stat(dir.c_str(), &dst) != 0) continue;
    std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
    if (!d) continue;
    while (dirent* de = ::readdir(d.get())) {
      std::string name = de->d_name;
      if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
      std::string path = dir + "/" + name;
      auto e = parse_entry(read_small(path, kMaxEntry));
      bool ok_uid = false;
      bool alive = e && e->uid == dst.st_uid && name == e->id + ".json";
      if (alive) {
        uid_t u = uid_of(e->pid, &ok_uid);
        Stat st = read_stat(e->pid);
        alive = ok_uid && u == e->uid && st.ok && st.start == e->proc_start;
      }
      if (!alive) {
        ::unlink(path.c_str());  // dead, reused or not an entry: pruned
        continue;
      }
      out.push_back(Live{*e, {}, 0, 0, {}, {}});
    }
  }
  if (out.empty()) return out;
  // One pass over /proc for every session: parents, times, cgroups.
  long hz = ::sysconf(_SC_CLK_TCK);
  if (hz <= 0) hz = 100;
  std::string mount = cgroup2_mount();
  struct Proc {
    pid_t pid;
    Stat st;
  };
  std::vector<Proc> procs;
  std::map<pid_t, pid_t> parent;
  for (pid_t p : all_pids()) {
    Stat st = read_stat(p);
    if (!st.ok) continue;
    procs.push_back({p, st});
    parent[p] = st.ppid;
  }
  // The processes carrying a LASH_SESSION, with their owner: read once for all the
  // sessions without a kernel boundary (one pass over /proc, not one per session).
  std::optional<std::map<std::string, std::vector<std::pair<pid_t, uid_t>>>> by_env;
  auto env_index = [&]() -> const std::map<std::string, std::vector<std::pair<pid_t, uid_t>>>& {
    if (by_env) return *by_env;
    by_env.emplace();
    for (const Proc& pr : procs)
      for (auto& v : env_values(pr.pid, "LASH_SESSION=")) {
        bool ok;
        uid_t u = uid_of(pr.pid, &ok);
        if (ok) (*by_env)[v].push_back({pr.pid, u});
      }
    return *by_env;
  };
  for (Live& l : out) {
    pid_t lash = l.entry.pid;
    std::string cg = cgroup_of(lash);
    if (!cg.empty() && !mount.empty() && is_session_cgroup(cg, lash)) l.cgroup_dir = mount + cg;
    pid_t init = 0;
    std::set<pid_t> members{lash};
    for (const Proc& pr : procs) {
      // A descendant of lash (the pid namespace's processes all are: their orphans
      // go to its init, a child of lash).
      pid_t q = pr.st.ppid;
      for (int depth = 0; q > 1 && depth < 4096; ++depth) {
        if (q == lash) {
          members.insert(pr.pid);
          break;
        }
        auto it = parent.find(q);
        if (it == parent.end()) break;
        q = it->second;
      }
      if (pr.st.ppid == lash && !init) init = namespace_init(pr.pid);
    }
    if (!l.cgroup_dir.empty()) {
      l.reach = "cgroup " + l.cgroup_dir;
      for (auto& s : str::split(read_small(l.cgroup_dir + "/cgroup.procs", 1 << 20), '\n'))
        if (auto v = str::parse_int(s); v && *v > 0) members.insert(pid_t(*v));
    } else if (init) {
      l.reach = "pid namespace (init " + std::to_string(init) + ")";
    } else {
      // No kernel boundary: the user's processes that carry the session's id.
      l.reach = "environment (LASH_SESSION)";
      const auto& idx = env_index();
      if (auto it = idx.find(l.entry.id); it != idx.end())
        for (auto [pid, uid] : it->second)
          if (uid == l.entry.uid) members.insert(pid);
    }
    uint64_t ticks = 0;
    for (const Proc& pr : procs)
      if (members.count(pr.pid)) ticks += pr.st.ticks + (pr.pid == lash ? pr.st.child_ticks : 0);
    l.members.push_back(lash);
    for (pid_t m : members)
      if (m != lash) l.members.push_back(m);
    l.processes = int(l.members.size());
    l.cpu_seconds = double(ticks) / double(hz);
    if (init) l.reach += l.cgroup_dir.empty() ? "" : ", pid namespace (init " + std::to_string(init) + ")";
  }
  std::sort(out.begin(), out.end(), [](const Live& a, const Live& b) { return a.entry.started < b.entry.started; });
  return out;
}

Result<std::string> kill_session(const std::string& id, bool all_users) {
  if (!valid_id(id)) return Error{"no session with this id", id, 0, {}};
  for (const Live& l : list_sessions(all_users)) {
    if (l.entry.id != id) continue;
    std::string how;
    if (!l.cgroup_dir.empty()) {
      // Every process of the cgroup at once, escapees included (Linux 5.14+).
      unique_fd fd(::open((l.cgroup_dir + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC));
      if (fd && ::write(fd.get(), "1", 1) == 1) how = "cgroup.kill";
    }
    // The rest (or everything, without a cgroup): lash's descendants, the namespace
    // init among them (its death ends the namespace), or the processes found by id.
    int killed = 0;
    for (pid_t p : l.members)
      if (::kill(p, SIGKILL) == 0) ++killed;
    if (how.empty()) how = l.reach;
    unregister_session(id);  // another user's entry (root) is pruned at the next read
    return how + ", " + std::to_string(killed) + " processes signalled";
  }
  return Error{"no running session with this id", id, 0, {}};
}

}  // namespace lash::sandbox::registry
