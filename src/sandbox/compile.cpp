// The rules of enforcement.md, applied to one resolved profile. Each helper adds one
// kind of grant; warnings and "not enforced here" notes are collected as we go, so
// review shows every weakening next to the grant that caused it.
#include "sandbox/compile.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "policy/paths.h"
#include "lash_config.h"
#include "policy/session_select.h"
#include "policy/wrapper_chain.h"
#include "sandbox/closure_cache.h"

namespace lash::sandbox {
namespace {

namespace paths = policy::paths;
using policy::Profile;

constexpr unsigned R = rights::read, W = rights::write, X = rights::execute, D = rights::ioctl_dev;

const char* const kProgramRoots[] = {"/usr", "/lib", "/lib64", "/bin", "/sbin"};
const char* const kDevices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
                                "/dev/tty", "/dev/pts", "/dev/ptmx"};
// Interpreters run whatever they can read: allowing one is allowing its scripts.
const char* const kInterpreters[] = {"sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3",
                                     "perl", "ruby", "node", "php", "lua", "tclsh", "busybox", "env"};

struct Builder {
  const Profile& p;
  const SessionContext& ctx;
  const Capabilities& caps;
  SandboxPlan plan;

  void grant(const std::string& path, unsigned r, std::string origin, std::string note = "", bool file = false) {
    plan.paths.push_back({path, r, file, std::move(origin), std::move(note)});
  }

  // process.exec_paths: the tree holding PATH, or nullptr.
  const policy::WritableRoot* exec_root_holding(const std::string& path) const {
    for (const auto& e : ctx.facts.exec_roots)
      if (paths::beneath(path, paths::normalize(e.path))) return &e;
    return nullptr;
  }
  // An exec path strictly inside the writable grant ROOT (exec_paths = ./build).
  bool holds_exec_root(const std::string& root) const {
    for (const auto& e : ctx.facts.exec_roots)
      if (paths::beneath(paths::normalize(e.path), root)) return true;
    return false;
  }

  bool writable(const std::string& path) const {
    for (const auto& w : ctx.facts.writable_roots)
      if (paths::beneath(path, paths::normalize(w.path))) return true;
    return false;
  }

  void baseline() {
    if (!p.system_paths.value) return;
    if (plan.spawn_any)
      for (const char* d : kProgramRoots) grant(d, R | X, "baseline");
    // Listing without reading: build tools scan the compiler's library directories
    // (meson's find_library lists /usr/lib, cmake and pkg-config look around), and a
    // directory listing that fails with EACCES aborts them. File contents stay closed.
    if (!plan.spawn_any)
      for (const char* d : kProgramRoots) grant(d, rights::list, "baseline", "list directories only");
    // /etc without its secrets: a root child would otherwise read /etc/shadow.
    if (ctx.etc_entries.empty()) {
      grant("/etc", R, "baseline");
    } else {
      for (const auto& e : ctx.etc_entries) grant(e, R, "baseline");
    }
    grant("/usr/share", R, "baseline");
    if (!plan.spawn_any) grant("/usr/lib/locale", R, "baseline", "locale data");
    for (const char* d : kDevices) grant(d, R | W | D, "baseline");
    // /proc/self is a symlink to one pid, so it cannot be a rule for every child:
    // /proc is granted read. The session's own /proc (ns.h) comes from its pid
    // namespace and shows only its processes; without one (an unprivileged user who
    // cannot make user namespaces) other processes' command lines are visible.
    grant("/proc", R, "baseline", "needed for /proc/self");
    if (!caps.root && !caps.user_namespaces)
      plan.unenforced.push_back(
          "/proc of other processes: their command lines and status stay readable (environ and mem are "
          "refused by Landlock's ptrace rules): hiding them needs the session's pid namespace, which needs "
          "user namespaces");
  }

  void data_dirs() {
    if (plan.spawn_any) return;
    for (const ExecFile& d : ctx.closure.data_dirs) grant(d.path, R, "runtime", "of " + d.needed_by);
  }

  void read_only() {
    for (const auto& ro : p.read_only.value) {
      std::string path = paths::expand(ro, ctx.env.start_dir, ctx.env.home);
      grant(path, plan.spawn_any ? R | X : R, "read_only");
      if (auto id = ctx.read_only_ids.find(path); id != ctx.read_only_ids.end()) {
        plan.paths.back().dev = id->second.first;
        plan.paths.back().ino = id->second.second;
      }
      warn_if_programs_readable(path, "read_only = " + ro);
    }
  }

  // A read_only path inside a writable grant (~/.gitconfig under include_workdir run
  // from ~): Landlock only adds rights, so the grant would make it writable. The
  // session mount namespace binds it read-only instead, as it does `protect`.
  void read_only_inside(const std::string& root) {
    for (const auto& ro : p.read_only.value) {
      std::string path = paths::normalize(paths::expand(ro, ctx.env.start_dir, ctx.env.home));
      if (path != root && paths::beneath(path, root) &&
          std::find(plan.protect.begin(), plan.protect.end(), path) == plan.protect.end())
        plan.protect.push_back(path);
    }
  }

  void writable_roots() {
    bool any_writable = false;
    for (const auto& w : ctx.facts.writable_roots) {
      std::string origin = w.key.substr(w.key.find('.') + 1);  // "read_write", "tmpdir", ...
      // A grant at or inside lash's own state is read-only (enforcement.md).
      if (const std::string* own = own_state_holding(paths::normalize(w.path))) {
        grant(w.path, plan.spawn_any ? R | X : R, origin, "read-only: inside lash's own state");
        plan.warnings.push_back(origin + " = " + w.path + " lies inside lash's own state (" + *own +
                                "): read-only for the session's programs");
        continue;
      }
      // W^X: with an allowlist nothing writable is executable, or a copied program
      // would run; process.exec_paths is the profile's explicit exception.
      std::string norm = paths::normalize(w.path);
      bool exec_here = plan.spawn_any || exec_root_holding(norm) != nullptr;
      grant(w.path, exec_here ? R | W | X : R | W, origin);
      plan.paths.back().dev = w.dev;
      plan.paths.back().ino = w.ino;
      if (w.key == "filesystem.tmpdir") plan.tmpdir = w.path;
      warn_if_programs_readable(w.path, origin + " = " + w.path);
      // The tmpdir is removed at exit: nothing planted there runs later.
      if (w.key != "filesystem.tmpdir") {
        for (const auto& rel : p.protect.value) plan.protect.push_back(paths::normalize(w.path + "/" + rel));
        read_only_inside(paths::normalize(w.path));
      }
      // With an allowlist nothing written may run, not even mapped by ld.so. An exec path
      // inside this grant needs the mount executable: Landlock alone then keeps the rest
      // of the grant from being executed (but ld.so may map a file from it).
      if (!exec_here && holds_exec_root(norm))
        plan.warnings.push_back("exec_paths inside " + origin + " = " + w.path + ": the rest of " + w.path +
                                " is not executable, but not mounted noexec either, so ld.so can map a "
                                "program copied there");
      else if (!exec_here)
        plan.noexec.push_back(norm);
      if (w.key != "filesystem.tmpdir") {
        protect_own_state(paths::normalize(w.path), origin);
        any_writable = true;
      }
    }
    finish_own_state(any_writable);
  }

  // enforcement.md: lash's own state is never inside a child's grant. A grant that
  // holds it (read_write = ~) keeps it read-only through a protect bind; a grant at
  // or inside it is not writable at all (writable_roots()).
  void protect_own_state(const std::string& grant, const std::string& origin) {
    std::string in = " inside " + origin + " = " + grant + ", where a program could plant the next session's profiles";
    for (const OwnState& own : ctx.own_state) {
      for (const std::string& link : own.links)
        if (paths::beneath(link, grant))
          plan.fs_refusals.push_back(own.spelled + " is reached through the symlink " + link + in +
                                     " by replacing the link; point it at the real directory");
      if (own.unsure || own.real.empty() || !paths::beneath(own.real, grant)) continue;
      if (own.exists) {
        // Once per tree: profiles/ beneath a protected $LASH_HOME needs no bind of its own.
        if (std::none_of(plan.protect.begin(), plan.protect.end(),
                         [&](const std::string& p) { return paths::beneath(own.real, p); }))
          plan.protect.push_back(own.real);
      } else if (std::none_of(missing_own_state.begin(), missing_own_state.end(),
                              [&](const auto& m) { return m.first == &own; })) {
        missing_own_state.push_back({&own, in});
      }
    }
  }

  // After every grant was seen: own state that does not exist is covered by a read-only
  // parent that does; else the one in use refuses (lash made it and failed), and another
  // (the default ~/.lash while LASH_HOME points elsewhere) is moved aside at session end
  // if a program makes it (a missing protect path, ns.h). Where one of them is cannot be
  // told (a symlink loop, ".." in a missing part): refused.
  void finish_own_state(bool any_writable) {
    for (const OwnState& own : ctx.own_state)
      if (own.unsure && any_writable)
        plan.fs_refusals.push_back("cannot tell where " + own.spelled + " is (a symlink loop, an unreadable "
                                   "link or \"..\" in a part that does not exist)");
    // Not a structured binding: clang before 16 cannot capture one in a lambda.
    for (const auto& missing : missing_own_state) {
      const OwnState* own = missing.first;
      const std::string& in = missing.second;
      bool covered = std::any_of(plan.protect.begin(), plan.protect.end(),
                                 [&](const std::string& p) { return paths::beneath(own->real, p); });
      if (covered) continue;
      if (own->in_use)
        plan.fs_refusals.push_back(own->spelled + " does not exist and would be made" + in + "; create it first");
      else if (std::find(plan.protect.begin(), plan.protect.end(), own->real) == plan.protect.end())
        plan.protect.push_back(own->real);
    }
  }
  std::vector<std::pair<const OwnState*, std::string>> missing_own_state;

  const std::string* own_state_holding(const std::string& grant) const {
    for (const OwnState& own : ctx.own_state)
      if (!own.real.empty() && paths::beneath(grant, own.real)) return &own.real;
    return nullptr;
  }

  // One rule per path: rights are unioned (as Landlock would), origins listed.
  void merge_duplicates() {
    std::vector<PathRule> out;
    out.reserve(plan.paths.size());
    std::unordered_map<std::string, size_t> at;  // path -> index in out (hundreds of rules)
    for (auto& r : plan.paths) {
      auto [pos, fresh] = at.emplace(r.path, out.size());
      if (fresh) {
        out.push_back(std::move(r));
        continue;
      }
      PathRule* it = &out[pos->second];
      it->rights |= r.rights;
      if (it->ino == 0) {
        it->dev = r.dev;
        it->ino = r.ino;
      }
      it->file = it->file && r.file;
      it->origin += "," + r.origin;
      if (it->note.empty()) it->note = r.note;
    }
    plan.paths = std::move(out);
  }

  void warn_if_programs_readable(const std::string& path, const std::string& what) {
    if (plan.spawn_any) return;
    std::string g = paths::normalize(path);
    for (const auto& d : program_directories()) {
      if (paths::beneath(d, g) || paths::beneath(g, d)) {
        plan.warnings.push_back(what + " makes the programs in " + d +
                                " readable, so the ELF interpreter can run them despite spawn_allowlist");
        return;
      }
    }
  }

  // process.exec_paths: each tree executable (a writable one already got its rights in
  // writable_roots(); this adds X to the ones inside a grant and R|X to read-only trees).
  void exec_paths() {
    if (plan.spawn_any) return;
    for (const auto& r : ctx.facts.exec_roots_refused)
      plan.warnings.push_back("exec_paths = " + r + " is not inside a place the session may write: not granted");
    for (const auto& e : ctx.facts.exec_roots) {
      std::string norm = paths::normalize(e.path);
      // A read-only exec tree must not open lash's own state to the session (a writable
      // grant holding it is covered by a protect bind in writable_roots()).
      bool holds_own = own_state_holding(norm) != nullptr ||
                       std::any_of(ctx.own_state.begin(), ctx.own_state.end(), [&](const OwnState& o) {
                         return !o.real.empty() && paths::beneath(o.real, norm);
                       });
      if (holds_own && !writable(norm)) {
        plan.warnings.push_back("exec_paths = " + e.path + " holds lash's own state: not granted");
        continue;
      }
      grant(e.path, R | X, "exec_paths");
      plan.warnings.push_back("exec_paths = " + e.path + ": a program written or unpacked there can run; "
                              "spawn_allowlist guards the system's programs, not code the job brings");
    }
  }

  void exec_grants() {
    if (plan.spawn_any) return;
    for (const ExecFile& f : ctx.closure.files) {
      bool runs = f.role != ExecFile::Role::library;
      if (runs && writable(f.path) && !exec_root_holding(f.path)) {
        plan.warnings.push_back(f.path + " is inside a writable grant: not made executable (W^X)");
        continue;
      }
      const char* origin = f.role == ExecFile::Role::program ? "spawn_allowlist"
                           : f.role == ExecFile::Role::interpreter ? "interpreter" : "library";
      std::string note = f.needed_by.empty() ? "" : "of " + f.needed_by;
      grant(f.path, runs ? R | X : R, origin, note, true);
    }
    for (const auto& prob : ctx.closure.problems) plan.warnings.push_back("exec closure: " + prob);
    for (const auto& [real, gap] : ctx.facts.wrapper_gaps)
      plan.warnings.push_back("wrapper " + policy::chain_text(gap) + ": needs " + gap.missing +
                              ", not allowed; running it is refused with Problem/Suggestion");
    for (const auto& [name, real] : ctx.facts.allow_real_by_name) {
      std::string base(paths::basename(real));
      for (const char* i : kInterpreters)
        if (name == i || base == i || base.rfind(std::string(i) + ".", 0) == 0) {
          plan.warnings.push_back("spawn_allowlist has the interpreter " + name +
                                  ", which can run any script it can read");
          break;
        }
    }
  }

  void network() {
    bool wants = p.block_all_others.value;
    if (!wants) return;
    plan.net_relay = true;
    for (const auto& r : p.allow_ports.value) plan.relay_ports.push_back({r.lo, r.hi});
    if (plan.relay_ports.empty() && !p.allow_hosts.value.empty()) plan.relay_ports = {{80, 80}, {443, 443}};
    for (const auto& r : p.allow_bind.value) plan.bind_ports.push_back({r.lo, r.hi});
    // A port also in allow_bind is the session's own (the namespace keeps it): the
    // relay never sees a loopback connection to it.
    for (const auto& r : p.allow_loopback.value) {
      bool own = false;
      for (const auto& b : p.allow_bind.value) own = own || (r.lo >= b.lo && r.hi <= b.hi);
      if (own) continue;
      plan.host_loopback_ports.push_back({r.lo, r.hi});
      plan.relay_ports.push_back({r.lo, r.hi});
    }
    if (p.net_enforcement.value == policy::Enforcement::warn) {
      plan.unenforced.push_back("network: enforcement = warn, nothing is refused by the kernel");
      return;
    }
    plan.restrict_net = true;
    for (const auto& r : p.allow_ports.value) plan.connect_ports.push_back({r.lo, r.hi});
    if (plan.connect_ports.empty() && !p.allow_hosts.value.empty())
      plan.connect_ports = {{80, 80}, {443, 443}};
    // DNS over TCP reaches the relay's DNS listener (netns.h): port 53 on any address.
    plan.connect_ports.push_back({53, 53});
    // Local services: Landlock rules are by port only; the namespace and the relay
    // decide the address (a connection elsewhere on these ports is the relay's to refuse).
    for (const PortRange& r : plan.bind_ports) plan.connect_ports.push_back(r);
    for (const PortRange& r : plan.host_loopback_ports) plan.connect_ports.push_back(r);
    if (!p.allow_hosts.value.empty())
    if (caps.landlock_abi < 4)
      plan.unenforced.push_back("network ports: need Landlock ABI 4 (this kernel: " +
                                std::to_string(caps.landlock_abi) + ")");
    plan.unenforced.push_back("pathname unix sockets are not restricted by Landlock (UDP is: the session's network "
                              "namespace has no way out but the relay)");
  }

  void limits() {
    plan.limits = {p.max_memory.value, p.max_cpu_seconds.value, p.max_file_size.value, p.max_processes.value,
                   p.max_open_files.value};
    if (plan.limits.processes && !caps.can_limit_pids())
      plan.unenforced.push_back("max_processes: no pids controller here, RLIMIT_NPROC fallback counts all of "
                                "the user's processes and does not bind root");
    if (plan.limits.memory && !caps.can_limit_memory())
      plan.unenforced.push_back("max_memory: no memory controller here, per-process address space only");
  }

  void environment() {
    plan.env_deny = p.env_deny.value;
    plan.env_force = p.env_force.value;
    plan.env_pass = p.env_pass.value;
    plan.env_pass_set = p.env_pass.set;
  }

  void hardening(bool restricted) {
    if (!restricted) return;
    plan.seccomp = plan.no_new_privs = plan.close_fds = plan.drop_capabilities = true;
    plan.scope_signals = plan.scope_abstract_unix = true;
    plan.deny_memfd_exec = !plan.spawn_any;
    if (!caps.seccomp) plan.unenforced.push_back("seccomp filter: seccomp is unavailable");
    if (caps.landlock_abi > 0 && caps.landlock_abi < 6)
      plan.unenforced.push_back("signals and abstract unix sockets to outside processes: need Landlock ABI 6");
    if (!caps.cgroup2_writable)
      plan.unenforced.push_back("no writable cgroup v2: a process that calls setsid may outlive the session");
    bool denies_preload = std::any_of(plan.env_deny.begin(), plan.env_deny.end(), [](const std::string& n) {
      return n == "LD_PRELOAD" || n == "LD_*";
    });
    if (plan.env_pass_set) denies_preload = denies_preload || std::none_of(plan.env_pass.begin(), plan.env_pass.end(),
                                                                           [](const std::string& n) { return n.rfind("LD_", 0) == 0; });
    if (!denies_preload) plan.warnings.push_back("environment.deny does not include LD_PRELOAD: children may load any readable library");
  }
};

}  // namespace

const std::vector<std::string>& program_directories() {
  static const std::vector<std::string> dirs = {"/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin",
                                                "/usr/local/sbin", "/usr/lib", "/usr/libexec", "/lib", "/opt"};
  return dirs;
}

const std::vector<std::string>& etc_secrets() {
  static const std::vector<std::string> s = {"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d",
                                             "ssh_host_*_key", "private", "opasswd", "security", "krb5.keytab",
                                             "*.key"};
  return s;
}

namespace {

}  // namespace

OwnState own_state_of(const std::string& spelled) {
  OwnState out;
  out.spelled = spelled;
  std::deque<std::string> todo;
  auto push_front = [&](const std::string& path) {  // the components of PATH, before the rest
    std::vector<std::string> parts;
    for (size_t start = 0; start <= path.size();) {
      size_t end = path.find('/', start);
      if (end == std::string::npos) end = path.size();
      if (end > start) parts.push_back(path.substr(start, end - start));
      start = end + 1;
    }
    todo.insert(todo.begin(), parts.begin(), parts.end());
  };
  auto join = [](const std::string& dir, const std::string& name) { return (dir == "/" ? "" : dir) + "/" + name; };
  if (spelled.empty() || spelled[0] != '/') {
    out.unsure = true;
    return out;
  }
  push_front(spelled);
  std::string cur = "/";  // resolved so far: a real, existing directory
  int followed = 0;
  while (!todo.empty()) {
    std::string c = todo.front();
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      cur = cur == "/" ? "/" : cur.substr(0, std::max<size_t>(1, cur.rfind('/')));
      continue;
    }
    std::string next = join(cur, c);
    struct stat st;
    if (::lstat(next.c_str(), &st) != 0) {
      // Missing from here on: where it would be made, if nothing in the rest is "..".
      std::string projected = next;
      for (const std::string& r : todo) {
        if (r == "..") out.unsure = true;
        if (r != ".") projected = join(projected, r);
      }
      out.real = projected;
      return out;
    }
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      ssize_t n = ::readlink(next.c_str(), target, sizeof target - 1);
      if (n <= 0 || ++followed > 40) {
        out.unsure = true;
        return out;
      }
      out.links.push_back(next);
      std::string t(target, static_cast<size_t>(n));
      if (t[0] == '/') cur = "/";
      push_front(t);
      continue;
    }
    cur = next;
  }
  out.real = cur;
  out.exists = true;
  return out;
}

SessionContext make_session_context(const policy::ResolvedProfile& profile, policy::SessionEnv env) {
  policy::SessionFacts facts = policy::make_session_facts(profile, env);
  return make_session_context(profile, std::move(env), std::move(facts));
}

SessionContext make_session_context(const policy::ResolvedProfile& profile, policy::SessionEnv env,
                                    policy::SessionFacts facts, bool with_closure) {
  SessionContext ctx;
  // The directories in use, and the ones another session would use: the default
  // ~/.lash while LASH_HOME points elsewhere, the compiled system directory. Each with
  // its profiles/ (which may be a symlink of its own, a dotfiles layout).
  auto add = [&](const std::string& dir, bool in_use) {
    if (dir.empty()) return;
    for (const std::string& d : {dir, dir + "/profiles"}) {
      if (std::any_of(ctx.own_state.begin(), ctx.own_state.end(), [&](const OwnState& o) { return o.spelled == d; }))
        continue;
      OwnState o = own_state_of(d);
      o.in_use = in_use;
      ctx.own_state.push_back(std::move(o));
    }
  };
  add(policy::lash_home(), true);
  add(policy::system_dir(), true);
  for (const std::string& home : policy::home_directories()) add(home + "/.lash", false);
  add(LASH_SYSTEM_DIR, false);
  if (profile.values.system_paths.value)
    ctx.etc_entries = list_except("/etc", etc_secrets(), {"ssh", "ssl", "pki"});
  for (const auto& ro : profile.values.read_only.value) {
    std::string path = paths::expand(ro, env.start_dir, env.home);
    struct stat st;
    if (::stat(path.c_str(), &st) == 0)
      ctx.read_only_ids[path] = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  }
  ctx.facts = std::move(facts);
  ctx.env = std::move(env);
  if (with_closure) add_exec_closure(ctx, profile);
  return ctx;
}

void add_exec_closure(SessionContext& ctx, const policy::ResolvedProfile& profile, const std::string& cache_dir) {
  if (profile.values.spawn_any.value) return;
  std::vector<std::string> progs(ctx.facts.allow_real.begin(), ctx.facts.allow_real.end());
  std::sort(progs.begin(), progs.end());
  ctx.closure = cached_exec_closure(cache_dir, progs);
}

SandboxPlan compile(const policy::ResolvedProfile& profile, const SessionContext& ctx, const Capabilities& caps) {
  const Profile& p = profile.values;
  Builder b{p, ctx, caps, {}};
  b.plan.spawn_any = p.spawn_any.value;
  bool fs_open = policy::filesystem_unrestricted(p);
  b.plan.restrict_fs = !fs_open || !b.plan.spawn_any;
  b.plan.fs_enforcement = p.fs_enforcement.value == policy::Enforcement::warn ? Enforcement::warn : Enforcement::enforce;
  b.plan.net_enforcement = p.net_enforcement.value == policy::Enforcement::warn ? Enforcement::warn : Enforcement::enforce;
  b.environment();
  if (b.plan.restrict_fs) {
    b.baseline();
    b.read_only();
    b.writable_roots();
    b.exec_grants();
    b.exec_paths();
    b.data_dirs();
    b.plan.mask_unix_sockets = true;
    if (caps.landlock_abi < 1) b.plan.unenforced.push_back("filesystem and programs: " + caps.landlock_error);
    if (!b.plan.protect.empty())
      b.plan.unenforced.push_back("filesystem.protect: read-only binds cover the paths that exist at session "
                                  "start; one created later in an existing repository (and a planted "
                                  ".git/commondir) is moved aside at session end; a repository created "
                                  "during the session is not covered");
  } else {
    // The tmpdir still exists (and is removed at exit) with an open filesystem.
    for (const auto& w : ctx.facts.writable_roots)
      if (w.key == "filesystem.tmpdir") b.plan.tmpdir = w.path;
  }
  if (b.plan.spawn_any && !p.spawn_denylist.value.empty())
    b.plan.unenforced.push_back("spawn_denylist: with spawn_any=true the kernel cannot deny single files; "
                                "refused by the policy layer only");
  b.network();
  b.limits();
  b.merge_duplicates();
  bool limited = b.plan.limits.memory || b.plan.limits.cpu_seconds || b.plan.limits.file_size ||
                 b.plan.limits.processes || b.plan.limits.open_files;
  b.hardening(b.plan.restrict_fs || b.plan.restrict_net || limited);
  return std::move(b.plan);
}

SandboxPlan plan_without_context(const policy::ResolvedProfile& profile) {
  return compile(profile, SessionContext{}, Capabilities{});
}

bool needs_sandbox(const policy::ResolvedProfile& profile) { return !plan_without_context(profile).empty(); }

}  // namespace lash::sandbox
