#include "sandbox/ns.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>

#include "sandbox/launch.h"

namespace lash::sandbox {
namespace {

// The session's pid and IPC namespaces: process state of the lash that made them (its
// pid_for_children), so kept once per process rather than per Prepared.
struct PidNsState {
  bool tried = false;
  bool own_user = false;  // lash made (and is in) the session's user namespace
  pid_t owner = -1;       // the lash process whose pid_for_children it is
  pid_t init = -1;        // host pid of the namespace's init, a child of lash
  SessionNamespaceFds fds;
  std::optional<Error> error;  // why none could be made (said again at a profile switch)
};
PidNsState g_pidns;

// Forks of lash made from here on are born in the session's pid namespace.
bool pidns_made() { return g_pidns.tried && g_pidns.init >= 0; }

bool write_proc(const char* path, const char* text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = write(fd, text, strlen(text));
  close(fd);
  return n == static_cast<ssize_t>(strlen(text));
}

// A bind remount must keep the flags the kernel locked on the original mount
// (nosuid, nodev, noexec, atime) or it fails with EPERM inside a user namespace.
unsigned long kept_flags(const char* path) {
  struct statvfs sv;
  if (statvfs(path, &sv) != 0) return 0;
  unsigned long f = 0;
  if (sv.f_flag & ST_NOSUID) f |= MS_NOSUID;
  if (sv.f_flag & ST_NODEV) f |= MS_NODEV;
  if (sv.f_flag & ST_NOEXEC) f |= MS_NOEXEC;
  if (sv.f_flag & ST_NOATIME) f |= MS_NOATIME;
  if (sv.f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
  if (sv.f_flag & ST_RELATIME) f |= MS_RELATIME;
  return f;
}

// Runs in the helper (a fork of lash before threads exist). Returns 0 or an errno.
int rebind(const std::string& p, unsigned long extra) {
  if (mount(p.c_str(), p.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return errno;
  unsigned long flags = MS_REMOUNT | MS_BIND | extra | kept_flags(p.c_str());
  if (mount(nullptr, p.c_str(), nullptr, flags, nullptr) != 0) return errno;
  return 0;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// mount_setattr(2) (Linux 5.12): one call makes a whole tree of mounts read-only.
int set_tree_read_only(const char* path) {
  struct mount_attr attr {};
  attr.attr_set = MOUNT_ATTR_RDONLY;
  if (syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr) != 0) return errno;
  return 0;
}

int setup_in_helper(uid_t uid, gid_t gid, const NamespaceSpec& spec, const std::vector<std::string>& paths,
                    bool init) {
  // The session's init makes the IPC namespace too (children join it with setns).
  int ipc = init ? CLONE_NEWIPC : 0;
  // lash is non-dumpable, which makes /proc/self/*_map root-owned and /proc/PID/ns/*
  // unreachable for an unprivileged lash: this helper becomes dumpable to write its
  // maps and let lash open its namespaces. Sandboxed processes still cannot reach it
  // (Landlock refuses ptrace access to processes outside their domain, and the
  // session's /proc is hidepid=ptraceable).
  if (uid != 0 && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return errno;
  if (uid != 0 && !g_pidns.own_user) {
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return errno;
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
    if (!write_proc("/proc/self/uid_map", map)) return errno ? errno : EPERM;
    if (!write_proc("/proc/self/setgroups", "deny\n")) return errno ? errno : EPERM;
    snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
    if (!write_proc("/proc/self/gid_map", map)) return errno ? errno : EPERM;
  } else if (unshare(CLONE_NEWNS | ipc) != 0) {  // root, or inside lash's own user namespace
    return errno;
  }
  // Our binds must not propagate back to the host; host mounts still arrive.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) return errno;
  if (spec.read_only_root) {
    if (int e = set_tree_read_only("/")) return e;
    // A re-bind without MS_RDONLY is read-write again (kept_flags never adds it); the
    // remount reaches only the top mount, so mounts beneath a grant (a tmpfs in the
    // workspace) are cleared separately. A submount whose read-only flag the kernel
    // locked stays read-only: that fails closed.
    for (const std::string& p : spec.writable) {
      if (int e = rebind(p, contains(spec.noexec, p) ? MS_NOEXEC | MS_NOSUID | MS_NODEV : 0)) return e;
      struct mount_attr rw {};
      rw.attr_clr = MOUNT_ATTR_RDONLY;
      (void)syscall(SYS_mount_setattr, AT_FDCWD, p.c_str(), AT_RECURSIVE, &rw, sizeof rw);
    }
  }
  for (const std::string& p : spec.noexec)
    if (!spec.read_only_root || !contains(spec.writable, p))
      if (int e = rebind(p, MS_NOEXEC | MS_NOSUID | MS_NODEV)) return e;
  // A directory that is a mount point cannot be renamed or removed (EBUSY), so the
  // parents of protected paths (.git) cannot be swapped for a new one with hooks.
  for (const std::string& p : spec.pin)
    if (int e = rebind(p, 0)) return e;
  // Recursively: a writable mount beneath a protected path (a grant inside it) must
  // not stay writable through the new bind.
  for (const std::string& p : paths) {
    if (int e = rebind(p, MS_RDONLY)) return e;
    if (int e = set_tree_read_only(p.c_str())) return e;
  }
  // A socket that vanished since it was listed is fine; any other failure is not.
  for (const std::string& p : spec.mask)
    if (mount("/dev/null", p.c_str(), nullptr, MS_BIND, nullptr) != 0 && errno != ENOENT) return errno;
  // In the session's pid namespace (this helper was forked into it) a new proc shows
  // only the session's processes; without one (root only) the host's. hidepid=
  // ptraceable also hides, from a sandboxed process, every process outside its own
  // Landlock domain: the init (a copy of lash) and, without a pid namespace, the host's.
  if (spec.private_proc && (pidns_made() || uid == 0) &&
      mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=ptraceable") != 0)
    return errno;
  return 0;
}

// The session's init: reaps what is orphaned in the namespace (SIGCHLD ignored with
// SA_NOCLDWAIT: the kernel reaps for it) and exits when lash's process does, which
// makes the kernel kill the namespace. PR_SET_PDEATHSIG does that at once when lash
// dies; but after `exec PROG` lash's process is a sandboxed program, and Landlock's
// signal scoping refuses its parent-death signal to the init, so the init also waits
// on lash's pidfd. It keeps no other fd: a pipe end held here would keep a reader of
// the script waiting.
[[noreturn]] void init_main(int lash_pidfd) {
  struct sigaction sa {};
  sa.sa_handler = SIG_IGN;
  sa.sa_flags = SA_NOCLDWAIT;
  sigemptyset(&sa.sa_mask);
  (void)sigaction(SIGCHLD, &sa, nullptr);
  if (lash_pidfd >= 0) {
    if (lash_pidfd > 0) (void)syscall(SYS_close_range, 0U, static_cast<unsigned>(lash_pidfd - 1), 0U);
    (void)syscall(SYS_close_range, static_cast<unsigned>(lash_pidfd + 1), ~0U, 0U);
  } else {
    (void)syscall(SYS_close_range, 0U, ~0U, 0U);
  }
  prctl(PR_SET_NAME, "lash-init", 0, 0, 0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (;;) {
    if (lash_pidfd < 0) {
      pause();
      continue;
    }
    struct pollfd gone = {lash_pidfd, POLLIN, 0};
    if (poll(&gone, 1, -1) > 0) _exit(0);  // lash's process has exited
  }
}

void collect_sockets(const std::string& dir, int depth, const std::vector<std::string>& keep,
                     std::vector<std::string>& out) {
  for (const auto& k : keep)
    if (dir == k || (dir.size() > k.size() && dir.compare(0, k.size(), k) == 0 && dir[k.size()] == '/')) return;
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    // readdir's d_type saves an lstat per entry; only filesystems that do not fill
    // it in need the lstat. A directory is only of interest with depth left.
    unsigned char type = e->d_type;
    if (type != DT_UNKNOWN && type != DT_SOCK && (type != DT_DIR || depth == 0)) continue;
    std::string path = (dir == "/" ? "" : dir) + "/" + name;
    struct stat st;
    if (type == DT_UNKNOWN) {
      if (lstat(path.c_str(), &st) != 0) continue;
      type = S_ISSOCK(st.st_mode) ? DT_SOCK : S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
    }
    if (type == DT_SOCK) {
      bool kept = false;
      for (const auto& k : keep) kept = kept || path.compare(0, k.size() + 1, k + "/") == 0;
      if (!kept) out.push_back(path);
    } else if (type == DT_DIR && depth > 0 && out.size() < 4096) {
      collect_sockets(path, depth - 1, keep, out);
    }
  }
  closedir(d);
}

// Every pathname socket bound in this network namespace, wherever it lives: one
// read of /proc/net/unix (the last column is the path; abstract names start with @).
void bound_sockets(const std::vector<std::string>& keep, std::vector<std::string>& out) {
  FILE* f = fopen("/proc/net/unix", "re");
  if (!f) return;
  char line[PATH_MAX + 128];
  while (fgets(line, sizeof line, f)) {
    char* slash = strchr(line, '/');
    if (!slash || slash[-1] != ' ') continue;
    std::string path(slash, strcspn(slash, "\n"));
    bool kept = false;
    for (const auto& k : keep) kept = kept || path.compare(0, k.size() + 1, k + "/") == 0;
    struct stat st;
    if (!kept && lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) out.push_back(path);
  }
  fclose(f);
}

}  // namespace

std::vector<std::string> find_unix_sockets(const std::vector<std::string>& keep) {
  std::vector<std::string> out;
  bound_sockets(keep, out);
  // Sockets bound in another network namespace (a container's daemon) are not in
  // /proc/net/unix but can still be connected to by path: walk the usual places too.
  // /tmp and /dev/shm hold many unrelated directories: only their top level.
  std::vector<std::pair<std::string, int>> roots = {{"/run", 3}, {"/var/run", 3}, {"/tmp", 0}, {"/dev/shm", 0}};
  for (const char* var : {"XDG_RUNTIME_DIR", "SSH_AUTH_SOCK"}) {
    const char* v = getenv(var);
    if (!v || v[0] != '/') continue;
    std::string s = v;
    roots.push_back({std::string(var) == "SSH_AUTH_SOCK" ? s.substr(0, s.rfind('/')) : s, 3});
  }
  std::vector<std::string> walked;  // /var/run is usually /run
  for (const auto& [r, depth] : roots) {
    char real[PATH_MAX];
    if (!realpath(r.c_str(), real) || contains(walked, real)) continue;
    walked.push_back(real);
    collect_sockets(real, depth, keep, out);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<NamespaceHelper> start_session_namespace(const NamespaceSpec& spec_in, const Capabilities& caps) {
  NamespaceHelper h;
  NamespaceSpec spec = spec_in;
  for (const auto& p : spec_in.protect) {
    struct stat st;
    (lstat(p.c_str(), &st) == 0 && !S_ISLNK(st.st_mode) ? h.present : h.missing).push_back(p);
  }
  auto existing = [](const std::vector<std::string>& in, bool dirs_only) {
    std::vector<std::string> keep;
    for (const auto& p : in) {
      struct stat st;
      if (stat(p.c_str(), &st) == 0 && (S_ISDIR(st.st_mode) || (!dirs_only && S_ISREG(st.st_mode)))) keep.push_back(p);
    }
    return keep;
  };
  spec.noexec = existing(spec_in.noexec, true);
  spec.writable = existing(spec_in.writable, false);
  // The directories between a writable grant and each protected path inside it.
  std::vector<std::string> pin;
  for (const auto& p : spec_in.protect) {
    std::string root;
    for (const auto& w : spec_in.writable)
      if (p.size() > w.size() && p.compare(0, w.size(), w) == 0 && p[w.size()] == '/' && w.size() > root.size())
        root = w;
    if (root.empty()) continue;
    for (size_t slash = p.find('/', root.size() + 1); slash != std::string::npos; slash = p.find('/', slash + 1)) {
      std::string dir = p.substr(0, slash);
      struct stat st;
      if (!contains(pin, dir) && lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) pin.push_back(dir);
    }
  }
  spec.pin = pin;
  // A protected path missing at start whose directory exists (.git/config of a
  // repository that has none yet) is quarantined if the session creates it.
  for (const auto& m : h.missing) {
    struct stat st;
    std::string parent = m.substr(0, m.rfind('/'));
    if (!parent.empty() && lstat(parent.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) h.quarantine.push_back(m);
  }
  for (const auto& dir : pin) {
    std::string redirect = dir + "/commondir";
    struct stat st;
    if (dir.size() >= 5 && dir.compare(dir.size() - 5, 5, "/.git") == 0 && lstat(redirect.c_str(), &st) != 0)
      h.quarantine.push_back(redirect);
  }
  h.uid = geteuid();
  // Whether a new /proc can be had is known once lash entered the pid namespace or
  // not (spawn_namespace_helper); here only whether one is wanted.
  spec.private_proc = spec_in.private_proc;
  if (h.present.empty() && spec.pin.empty() && spec.noexec.empty() && spec.mask.empty() && !spec.find_masks &&
      !spec.read_only_root && !spec.private_proc)
    return h;  // nothing to do: pid stays -1
  if (h.uid != 0 && !caps.user_namespaces && !g_pidns.own_user)
    return Error{kNeedsUserNamespace, "", EPERM, {}};
  h.spec = std::move(spec);
  h.planned = true;
  return h;
}

Result<void> spawn_namespace_helper(NamespaceHelper& h, int close_in_child) {
  if (!h.planned) return {};
  h.planned = false;
  NamespaceSpec& spec = h.spec;
  // A new /proc needs root, or the session's pid namespace (a proc instance of one's
  // own pid namespace may be mounted inside its user namespace).
  spec.private_proc = spec.private_proc && (h.uid == 0 || pidns_made());
  h.private_proc = spec.private_proc;
  // The first process forked after enter_session_pid_namespace() is pid 1 there: it
  // stays as the namespace's init. lash's pidfd tells it whether lash died before its
  // PR_SET_PDEATHSIG took effect.
  bool want_init = g_pidns.owner == getpid() && g_pidns.init == 0;
  unique_fd lash_pidfd;
  if (want_init) lash_pidfd.reset(static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0)));
  int ready[2], done[2];
  if (pipe2(ready, O_CLOEXEC) != 0) return sys_error("cannot create a pipe", "", errno);
  if (pipe2(done, O_CLOEXEC) != 0) {
    close(ready[0]);
    close(ready[1]);
    return sys_error("cannot create a pipe", "", errno);
  }
  unique_fd ready_r(ready[0]), ready_w(ready[1]), done_r(done[0]), done_w(done[1]);
  pid_t pid = fork_helper();
  if (pid < 0) return sys_error("cannot start the namespace helper", "", errno);
  if (pid == 0) {
    ready_r.reset();
    done_w.reset();  // or the read below would never see EOF
    if (close_in_child >= 0) close(close_in_child);
    bool init = want_init && getpid() == 1;
    if (init) {
      // When lash dies, SIGKILL included, this init dies, and with it (the kernel
      // kills a pid namespace whose init exits) every process of the session.
      if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) _exit(1);
      struct pollfd gone = {lash_pidfd.get(), POLLIN, 0};
      if (lash_pidfd && poll(&gone, 1, 0) != 0) _exit(1);  // lash already exited
      (void)setsid();  // off the terminal: its signals are not for the session's init
    }
    if (spec.find_masks)  // as lash, before any namespace: the host's view
      for (auto& s : find_unix_sockets(spec.mask_keep)) spec.mask.push_back(std::move(s));
    int err = setup_in_helper(h.uid, getegid(), spec, h.present, init);
    (void)!write(ready_w.get(), &err, sizeof err);
    if (!init) {
      char c;
      (void)!read(done_r.get(), &c, 1);  // hold the namespaces until lash has opened them
      _exit(0);
    }
    if (err != 0) _exit(1);
    // Dumpable only until lash has opened the namespaces through /proc/PID/ns (it
    // closes `done` then): the init is a copy of lash, holding capabilities in lash's
    // user namespace, and a dumpable process's memory is open to its user.
    char c;
    (void)!read(done_r.get(), &c, 1);
    done_r.reset();
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) _exit(1);
    init_main(lash_pidfd.get());
  }
  lash_pidfd.reset();
  if (want_init) g_pidns.init = pid;
  h.init = want_init;
  h.pid = pid;
  h.ready = std::move(ready_r);
  h.done = std::move(done_w);
  return {};
}

void reap_namespace_helper(NamespaceHelper& h) {
  if (h.init) {  // the session's init stays while lash lives (ns.h)
    h.ready.reset();
    h.done.reset();
    h.pid = -1;
    return;
  }
  if (h.pid < 0) return;
  h.ready.reset();
  h.done.reset();  // if finish_session_namespace() did not run: the helper exits now
  int ws;
  while (waitpid(h.pid, &ws, 0) < 0 && errno == EINTR) {
  }
  h.pid = -1;
}

Result<SessionNamespaces> finish_session_namespace(NamespaceHelper& h, bool reap) {
  SessionNamespaces out;
  out.missing = h.missing;
  if (h.pid < 0 || !h.ready) return out;
  int err = EPROTO;
  ssize_t n;
  do n = read(h.ready.get(), &err, sizeof err);
  while (n < 0 && errno == EINTR);
  bool ok = n == static_cast<ssize_t>(sizeof err) && err == 0;
  if (ok) {
    std::string base = "/proc/" + std::to_string(h.pid) + "/ns/";
    if (h.uid != 0 && !g_pidns.own_user) out.user.reset(open((base + "user").c_str(), O_RDONLY | O_CLOEXEC));
    out.mnt.reset(open((base + "mnt").c_str(), O_RDONLY | O_CLOEXEC));
    // The private /proc is a new superblock: a Landlock rule made on the host's /proc
    // would not cover it, so its root is opened through the helper's view.
    if (h.private_proc)
      out.proc.reset(open(("/proc/" + std::to_string(h.pid) + "/root/proc").c_str(), O_PATH | O_CLOEXEC | O_DIRECTORY));
    if (!out.mnt || (h.uid != 0 && !g_pidns.own_user && !out.user) || (h.private_proc && !out.proc)) {
      ok = false;
      err = errno;
    }
    if (ok && h.init) {
      // Out of the script's fd range: `exec 4>&-` must not close or replace them.
      g_pidns.fds.ipc.reset(open((base + "ipc").c_str(), O_RDONLY | O_CLOEXEC));
      keep_private(g_pidns.fds.ipc);
      g_pidns.fds.pid.reset(open("/proc/self/ns/pid_for_children", O_RDONLY | O_CLOEXEC));
      keep_private(g_pidns.fds.pid);
      if (out.proc) g_pidns.fds.proc.reset(fcntl(out.proc.get(), F_DUPFD_CLOEXEC, 10));
      if (!g_pidns.fds.ipc || !g_pidns.fds.pid || (out.proc && !g_pidns.fds.proc)) {
        ok = false;
        err = errno;
      }
    }
  }
  h.ready.reset();
  h.done.reset();  // the helper exits (the init stays)
  if (!ok && h.init) {  // no usable namespace: its init goes, and with it anything forked since
    kill(h.pid, SIGKILL);
    g_pidns.init = -1;
  }
  if (reap || !ok) reap_namespace_helper(h);
  if (!ok) return sys_error("cannot set up the session mount namespace", "", err);
  out.protected_paths = h.present;
  return out;
}

Result<SessionNamespaces> make_session_namespace(const NamespaceSpec& spec, const Capabilities& caps) {
  auto h = start_session_namespace(spec, caps);
  if (!h) return h.error();
  if (auto r = spawn_namespace_helper(h.value(), -1); !r) return r.error();
  return finish_session_namespace(h.value());
}

namespace {
bool g_pidns_enabled = true;
}  // namespace

void set_session_pid_namespace(bool on) { g_pidns_enabled = on; }
bool session_pid_namespace_enabled() { return g_pidns_enabled; }

namespace {
Result<void> make_pid_namespace(const Capabilities& caps);
}  // namespace

Result<void> enter_session_pid_namespace(const Capabilities& caps) {
  if (!g_pidns_enabled) return Error{"turned off in this process (a test of the other layers)", "", 0, {}};
  if (g_pidns.tried && g_pidns.owner == getpid()) {  // once per process: the same answer
    if (g_pidns.error) return *g_pidns.error;
    return {};
  }
  g_pidns = PidNsState{};
  g_pidns.tried = true;
  g_pidns.owner = getpid();
  auto r = make_pid_namespace(caps);
  if (!r) g_pidns.error = r.error();
  return r;
}

namespace {
Result<void> make_pid_namespace(const Capabilities& caps) {
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (uid != 0) {
    if (!caps.user_namespaces) return Error{"this kernel refuses user namespaces to this user", "", EPERM, {}};
    // lash itself enters a new user namespace mapping only its own uid and gid, so
    // that it may make the pid namespace its children are born in (see ns.h for what
    // this changes for lash). Its maps are written while it is dumpable: the files
    // of a non-dumpable process belong to root.
    int was_dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    if (was_dumpable < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
      return sys_error("cannot make the session's user namespace", "", errno);
    if (unshare(CLONE_NEWUSER) != 0) {
      int e = errno;
      (void)prctl(PR_SET_DUMPABLE, was_dumpable, 0, 0, 0);
      return sys_error("cannot make the session's user namespace", "", e);
    }
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", uid, uid);
    bool ok = write_proc("/proc/self/uid_map", map) && write_proc("/proc/self/setgroups", "deny\n");
    snprintf(map, sizeof map, "%u %u 1\n", gid, gid);
    ok = ok && write_proc("/proc/self/gid_map", map);
    int e = errno;
    if (prctl(PR_SET_DUMPABLE, was_dumpable, 0, 0, 0) != 0 && ok) {
      ok = false;
      e = errno;
    }
    // Half made (no map): lash cannot act as itself in there; the session refuses
    // the profile's commands (prepare() fails under enforce) rather than go on.
    if (!ok) return Error{"cannot map lash's uid in the session's user namespace", "", e ? e : EPERM, {}};
    g_pidns.own_user = true;
  }
  if (unshare(CLONE_NEWPID) != 0) return sys_error("cannot make the session's pid namespace", "", errno);
  g_pidns.init = 0;  // made; its init is the next helper lash forks
  return {};
}
}  // namespace

const SessionNamespaceFds* session_namespaces() {
  return g_pidns.init > 0 && g_pidns.fds.pid ? &g_pidns.fds : nullptr;
}

bool in_own_user_namespace() { return g_pidns.own_user; }

bool session_namespaces_inherited() { return g_pidns.init > 0; }

bool translates_pids() { return g_pidns.init > 0 && g_pidns.owner == getpid(); }

pid_t session_pid_of(pid_t host_pid) {
  if (!translates_pids() || host_pid <= 0) return host_pid;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(host_pid));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[4096];
  ssize_t n;
  do n = read(fd, buf, sizeof buf - 1);
  while (n < 0 && errno == EINTR);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  // "NSpid:\t1234\t7": the host's number first, the innermost namespace's last.
  const char* line = strstr(buf, "\nNSpid:");
  if (!line) return -1;
  const char* end = strchr(line + 1, '\n');
  const char* last = nullptr;
  for (const char* c = line + 7; c < (end ? end : buf + n); ++c)
    if (*c == '\t' || *c == ' ') last = c + 1;
  if (!last) return -1;
  long v = strtol(last, nullptr, 10);
  return v > 0 ? static_cast<pid_t>(v) : -1;
}

void end_session_processes() {
  if (g_pidns.owner != getpid() || g_pidns.init <= 0) return;
  // kill(-1) from inside the namespace reaches every process there but its init (and
  // the sender): setsid, nohup and double forks included. Sent from a fork of lash,
  // which is born inside; lash itself is outside. The init stays, so that a later
  // profile (or a test) may use the namespace again; it dies with lash (PDEATHSIG).
  pid_t child = fork_helper();
  if (child < 0) {  // cannot fork: end the namespace itself (the init's death kills all)
    kill(g_pidns.init, SIGKILL);
    g_pidns.init = -1;
    return;
  }
  if (child == 0) {
    for (int i = 0; i < 2; ++i) kill(-1, SIGKILL);
    _exit(0);
  }
  int ws;
  while (waitpid(child, &ws, 0) < 0 && errno == EINTR) {
  }
}

int signal_from_session(int64_t target, int sig) {
  if (target < INT_MIN || target > INT_MAX || target == 0) return EINVAL;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return errno;
  unique_fd r(p[0]), w(p[1]);
  pid_t child = fork_helper();
  if (child < 0) return errno;
  if (child == 0) {
    // Born in the session's pid namespace: the number is read there, and a process
    // outside does not exist. Pinned with a pidfd, so a pid reused meanwhile fails.
    r.reset();
    int err = 0;
    if (target > 0) {
      int fd = static_cast<int>(syscall(SYS_pidfd_open, static_cast<pid_t>(target), 0));
      if (fd < 0 || syscall(SYS_pidfd_send_signal, fd, sig, nullptr, 0) != 0) err = errno;
    } else if (kill(static_cast<pid_t>(target), sig) != 0) {  // a group, or -1: only what is inside
      err = errno;
    }
    (void)!write(w.get(), &err, sizeof err);
    _exit(0);
  }
  w.reset();
  int err = EIO;
  ssize_t n;
  do n = read(r.get(), &err, sizeof err);
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof err)) err = EIO;
  int ws;
  while (waitpid(child, &ws, 0) < 0 && errno == EINTR) {
  }
  return err;
}

int signal_own_group_in_session(int sig, pid_t skip) {
  const SessionNamespaceFds* ns = session_namespaces();
  if (!ns || !ns->proc) return ESRCH;
  int proc = ns->proc.get();
  pid_t child = fork_helper();
  if (child < 0) return errno;
  if (child == 0) {
    // Born in the session's pid namespace: the numbers read below are its own.
    int dirfd = openat(proc, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) _exit(1);
    DIR* d = fdopendir(dirfd);
    if (!d) _exit(1);
    pid_t me = getpid();
    while (dirent* e = readdir(d)) {
      char* end = nullptr;
      long n = strtol(e->d_name, &end, 10);
      if (n <= 1 || *end != '\0' || n == me || n == skip) continue;
      char path[64], buf[512];
      snprintf(path, sizeof path, "%ld/stat", n);
      int fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      ssize_t len = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (len <= 0) continue;
      buf[len] = '\0';
      // "pid (comm) state ppid pgrp ...": comm may hold anything, so from the last ')'.
      char* rp = strrchr(buf, ')');
      char state;
      long ppid, pgrp;
      if (!rp || sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3) continue;
      if (pgrp == 0) (void)kill(static_cast<pid_t>(n), sig);  // lash's group, led from outside
    }
    closedir(d);
    _exit(0);
  }
  int ws;
  while (waitpid(child, &ws, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(ws) && WEXITSTATUS(ws) == 0 ? 0 : EIO;
}

pid_t session_init_pid() { return g_pidns.owner == getpid() ? g_pidns.init : -1; }

}  // namespace lash::sandbox
