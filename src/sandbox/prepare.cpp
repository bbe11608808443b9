#include "sandbox/prepare.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/cgroup.h"
#include "sandbox/landlock.h"
#include "sandbox/netns.h"
#include "sandbox/ns.h"
#include "sandbox/seccomp_filter.h"
#include "sandbox/watchdog.h"

namespace lash::sandbox {
namespace {

// Hard limit = soft limit, so the program cannot raise it; never above the current
// hard limit (an unprivileged lash could not set it). CPU keeps one second between
// SIGXCPU (soft) and SIGKILL (hard).
void add_rlimit(Prepared& p, int resource, uint64_t value) {
  if (value == 0) return;
  struct rlimit cur {};
  getrlimit(resource, &cur);
  rlim_t v = static_cast<rlim_t>(value);
  rlim_t hard = resource == RLIMIT_CPU ? v + 1 : v;
  if (cur.rlim_max != RLIM_INFINITY && hard > cur.rlim_max) hard = cur.rlim_max;
  if (v > hard) v = hard;
  p.rlimits.push_back({resource, v, hard});
}

bool fs_warn_only(const SandboxPlan& plan) {
  return plan.fs_enforcement == Enforcement::warn && (!plan.restrict_net || plan.net_enforcement == Enforcement::warn);
}

// enforcement.md: a field whose kernel mechanism needs a newer ABI than this kernel
// has is refused under `enforce`, and said once under `warn`.
// P null: only the refusal (check_plan).
Result<void> check_abi(Prepared* p, const SandboxPlan& plan, const Capabilities& caps) {
  auto need = [&](bool wanted, int abi, Enforcement e, const std::string& what) -> Result<void> {
    if (!wanted || caps.landlock_abi < 1 || caps.landlock_abi >= abi) return {};
    std::string msg = what + " needs Landlock ABI " + std::to_string(abi) + ", this kernel has ABI " +
                      std::to_string(caps.landlock_abi);
    if (e == Enforcement::enforce) return Error{msg, "", 0, {}};
    if (p) p->notes.push_back(msg + ": not enforced (enforcement = warn)");
    return {};
  };
  if (auto r = need(plan.restrict_fs, 3, plan.fs_enforcement, "refusing truncate() outside the grants"); !r) return r;
  return need(plan.restrict_net, 4, plan.net_enforcement, "the TCP port rules of [network]");
}

// Builds the ruleset but for the rules of LATER (finish_landlock adds them).
Result<void> prepare_landlock(Prepared& p, const SandboxPlan& plan, const Capabilities& caps,
                              const std::vector<std::string>& later, LandlockRuleset& out) {
  if (auto r = check_abi(&p, plan, caps); !r) return r;
  auto ll = build_landlock(plan, caps, {}, later);
  if (!ll) {
    if (!fs_warn_only(plan)) return ll.error();
    p.notes.push_back("filesystem and network rules are NOT enforced by the kernel (enforcement = warn): " +
                      ll.error().message());
    return {};
  }
  out = std::move(ll.value());
  return {};
}

Result<void> finish_landlock(Prepared& p, const SandboxPlan& plan, const std::vector<std::string>& later,
                             const std::vector<OpenedPath>& opened, LandlockRuleset& ll) {
  if (!ll.fd) return {};
  if (auto r = add_later_rules(ll, plan, later, opened); !r) {
    if (!fs_warn_only(plan)) return r.error();
    p.notes.push_back("filesystem and network rules are NOT enforced by the kernel (enforcement = warn): " +
                      r.error().message());
    return {};
  }
  p.landlock = std::move(ll.fd);
  p.landlock_abi = ll.abi;
  for (auto& d : ll.dropped) p.notes.push_back(std::move(d));
  return {};
}

Result<void> prepare_seccomp(Prepared& p, const SandboxPlan& plan, const Capabilities& caps) {
  if (!plan.seccomp) return {};
  if (!caps.seccomp) {
    p.notes.push_back("seccomp is unavailable: changing other processes by pid, new setuid files, ptrace, "
                      "io_uring, mount, bpf, new user namespaces and "
                      "TIOCSTI are not refused by the kernel");
    return {};
  }
  auto prog = build_seccomp(plan);
  if (!prog) return prog.error();
  auto args = build_arg_filter(/*keep_openat2=*/false);
  if (!args) return args.error();
  auto broker = build_arg_filter(/*keep_openat2=*/true);
  if (!broker) return broker.error();
  p.seccomp = join_filters(*args, *prog);
  p.seccomp_broker = join_filters(*broker, *prog);
  return {};
}

// The session mount namespace (ns.h), started early (its helper works while lash
// computes the closure) and finished by prepare(). Needed by protect, noexec
// workspaces and masked sockets, which refuse the profile's commands under
// `enforce` when it cannot be made; the read-only root and the private /proc are
// covers for Landlock's blind spots, said once when unavailable. Its inputs do not
// depend on the exec closure, except that sockets inside the closure's runtime
// directories (/usr/lib/NAME) are masked too, which only fails closed.
void start_namespace(Prepared& p, const SandboxPlan& plan, const Capabilities& caps) {
  bool pidns = session_init_pid() >= 0;  // made (init may still be to come)
  if (p.ns_started || (!plan.restrict_fs && !pidns)) return;
  p.ns_started = true;
  NamespaceSpec spec;
  if (plan.restrict_fs) {
    spec.read_only_root = true;
    for (const PathRule& r : plan.paths)
      if ((r.rights & rights::write) && r.origin != "baseline") spec.writable.push_back(r.path);
    spec.noexec = plan.noexec;
    spec.protect = plan.protect;
    if (plan.mask_unix_sockets && caps.landlock_abi < 9) {
      spec.find_masks = true;  // by the helper (ns.h)
      for (const PathRule& r : plan.paths)  // sockets inside the profile's own grants stay usable
        if (r.origin != "baseline" && !r.file) spec.mask_keep.push_back(r.path);
      p.ns_masks = true;
      p.mask_keep = spec.mask_keep;
    }
    p.ns_required = !spec.protect.empty() || !spec.noexec.empty();
  }
  spec.private_proc = true;  // root, or the session's pid namespace (ns.cpp decides)
  auto h = start_session_namespace(spec, caps);
  if (h)
    p.ns_helper = std::move(h.value());
  else
    p.ns_start_error = h.error();
}

// Forks the helper start_namespace() planned (in the session's pid namespace when
// there is one: the first becomes its init).
void spawn_namespace(Prepared& p) {
  if (p.ns_start_error) return;
  if (auto r = spawn_namespace_helper(p.ns_helper, p.watchdog_go ? p.watchdog_go.get() : -1); !r)
    p.ns_start_error = r.error();
}

Result<void> finish_namespace(Prepared& p, const SandboxPlan& plan, const Capabilities& caps, unique_fd& proc) {
  if (!p.ns_started) {  // when nothing began it
    start_namespace(p, plan, caps);
    spawn_namespace(p);
  }
  if (!p.ns_started) return {};
  Result<SessionNamespaces> ns = p.ns_start_error ? Result<SessionNamespaces>(*p.ns_start_error)
                                                  : finish_session_namespace(p.ns_helper, /*reap=*/false);
  p.ns_start_error.reset();
  if (!ns) {
    // Masking is needed only where there are sockets to mask; the helper looked for
    // them, so look here too now that it failed.
    if (!p.ns_required && p.ns_masks) p.ns_required = !find_unix_sockets(p.mask_keep).empty();
    if (p.ns_required && plan.fs_enforcement != Enforcement::warn) return ns.error();
    p.notes.push_back(std::string(p.ns_required ? "filesystem.protect, noexec workspaces and socket masking are NOT "
                                                  "enforced by the kernel (enforcement = warn)"
                                                : "chmod, utime and xattr changes outside the grants are not refused") +
                      ": " + ns.error().message());
    return {};
  }
  p.userns = std::move(ns->user);
  p.mntns = std::move(ns->mnt);
  if (const SessionNamespaceFds* sn = session_namespaces(); sn && sn->ipc) {
    // Out of the script's fd range (keep_private); a copy that cannot be made would
    // leave every child in the host's IPC namespace: refused, not run without it.
    p.ipcns.reset(fcntl(sn->ipc.get(), F_DUPFD_CLOEXEC, 10));
    if (!p.ipcns) return sys_error("cannot keep the session's IPC namespace", "", errno);
  }
  p.quarantine = p.ns_helper.quarantine;
  proc = std::move(ns->proc);
  // Protected paths missing at start are quarantined if the session makes them
  // (ns.h); where their directory (.git) does not exist either, the workspace is
  // not a repository and `profile review` names the gap.
  return {};
}

}  // namespace

namespace {

// Writes "0" to DIR/tasks: moves the calling thread (all of single-threaded lash).
Result<void> move_self_by_thread(const std::string& dir) {
  if (auto r = write_cgroup_file(dir + "/tasks", "0"); !r)
    return sys_error("cannot join the session cgroup", dir, r.error().err ? r.error().err : EIO);
  return {};
}

// The watchdog's answer: 0 once lash is in every session cgroup, else an errno.
Result<void> finish_join(Prepared& p) {
  p.watchdog_go.reset();  // the watchdog waits for it before it answers
  if (!p.join_pending) return {};
  int err = EPROTO;
  ssize_t n;
  do n = read(p.join_pending.get(), &err, sizeof err);
  while (n < 0 && errno == EINTR);
  p.join_pending.reset();
  if (n != static_cast<ssize_t>(sizeof err)) err = n < 0 ? errno : EPROTO;
  if (err != 0) return sys_error("cannot move lash into the session cgroup", "", err);
  return {};
}

}  // namespace

Result<void> limit_self(const Limits& l) {
  Prepared tmp;
#if !defined(__SANITIZE_ADDRESS__)
  add_rlimit(tmp, RLIMIT_AS, l.memory);  // sanitizer builds: see prepare()
#endif
  add_rlimit(tmp, RLIMIT_CPU, l.cpu_seconds);
  add_rlimit(tmp, RLIMIT_FSIZE, l.file_size);
  add_rlimit(tmp, RLIMIT_NOFILE, l.open_files);
  for (RlimitSetting& r : tmp.rlimits) {
    // The file-size limit on lash is soft only: lash's own audit log lifts it for its
    // writes (audit/sink.cpp); the `ulimit` builtin refuses to raise it (file_size_cap).
    if (r.resource == RLIMIT_FSIZE) {
      struct rlimit cur {};
      if (getrlimit(RLIMIT_FSIZE, &cur) == 0) r.hard = cur.rlim_max;
    }
    struct rlimit lim {r.soft, r.hard};
    if (setrlimit(r.resource, &lim) != 0) return sys_error("cannot limit lash itself", "", errno);
  }
  return {};
}

namespace {

// plan.fs_refusals: the filesystem rules cannot hold. Under `enforce` the profile's
// commands are refused; under `warn` they run and it is said once (by prepare()).
Result<void> check_fs_refusals(Prepared* p, const SandboxPlan& plan) {
  if (plan.fs_refusals.empty()) return {};
  if (plan.fs_enforcement == Enforcement::enforce) return Error{plan.fs_refusals.front(), "", EPERM, {}};
  if (p)
    for (const std::string& r : plan.fs_refusals) p->notes.push_back(r + " (not enforced: enforcement = warn)");
  return {};
}

}  // namespace

Result<void> check_plan(const SandboxPlan& plan, const Capabilities& caps) {
  if (plan.empty()) return {};
  if (auto r = check_fs_refusals(nullptr, plan); !r) return r;
  if (auto r = check_abi(nullptr, plan, caps); !r) return r;
  // build_landlock() fails the same way later; said here, before anything is made.
  bool wants_landlock = plan.restrict_fs || plan.restrict_net || plan.scope_signals || plan.scope_abstract_unix;
  if (wants_landlock && caps.landlock_abi < 1 && !fs_warn_only(plan))
    return Error{"the kernel has no Landlock: " + caps.landlock_error, "", 0, {}};
  // start_namespace()/finish_namespace(): protect and noexec need the namespace, which
  // a user other than root makes inside a user namespace. (Masked sockets need it only
  // where the host has sockets to mask: known when they are looked for.)
  // enter_pid_namespace(): with neither a pid namespace nor a writable cgroup the
  // session's processes could outlive it (said the same way, for the dry run).
  if (!caps.root && !caps.user_namespaces && !caps.cgroup2_writable && !caps.can_limit_pids() &&
      plan.fs_enforcement == Enforcement::enforce && session_pid_namespace_enabled())
    return Error{"no pid namespace for the session (this kernel refuses user namespaces to this user) and no "
                 "writable cgroup: the session's processes could outlive it and reach processes outside by pid",
                 "", EPERM, {}};
  bool ns_required = plan.restrict_fs && (!plan.protect.empty() || !plan.noexec.empty());
  if (ns_required && !caps.root && !caps.user_namespaces && plan.fs_enforcement != Enforcement::warn)
    return Error{kNeedsUserNamespace, "", EPERM, {}};
  return {};
}

namespace {
// The session's pid and IPC namespaces (ns.h), for every sandboxed session. Where they
// cannot be made, a session cgroup still ends every process of the session; with
// neither, processes could outlive the session and reach others by pid: refused
// under `enforce`, said once under `warn`.
Result<void> enter_pid_namespace(Prepared& p, const SandboxPlan& plan, const Capabilities& caps) {
  if (!session_pid_namespace_enabled()) return {};  // tests of the other layers (ns.h)
  auto r = enter_session_pid_namespace(caps);
  if (r) {
    // The namespace ends every process of the session and hides the host's: what
    // the cgroup notes say is missing is covered (RLIMIT_NPROC, in lash's own user
    // namespace, counts the session's processes only: prepare()).
    for (std::string& n : p.notes) {
      if (n.rfind("no writable cgroup v2", 0) == 0)
        n.clear();
      else if (n.rfind("no pids controller", 0) == 0 && in_own_user_namespace())
        n = "no pids controller: max_processes is RLIMIT_NPROC in the session's own user namespace, "
            "where it counts the session's processes only, the shell's own forks included";
    }
    std::erase_if(p.notes, [](const std::string& n) { return n.empty(); });
    return {};
  }
  std::string why = "no pid namespace for the session (" + r.error().message() + ")";
  if (p.cgroup_dirs.empty() && plan.fs_enforcement == Enforcement::enforce)
    return Error{why + " and no writable cgroup: the session's processes could outlive it and reach "
                       "processes outside by pid", "", r.error().err, {}};
  p.notes.push_back(why + (p.cgroup_dirs.empty() ? " and no writable cgroup: processes may outlive the session "
                                                   "(enforcement = warn)"
                                                 : ": processes outside the session can be reached by pid"));
  return {};
}
}  // namespace

Result<void> begin_prepare(Prepared& p, const SandboxPlan& plan, const Capabilities& caps) {
  if (p.begun || plan.empty()) return {};
  if (auto r = check_plan(plan, caps); !r) return r;
  p.begun = true;
  // Children must not read lash's memory or environ through /proc.
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return sys_error("cannot make lash non-dumpable", "", errno);
  p.tmpdir = plan.tmpdir;  // granted by compile(); removed at exit
  // A new directory for each prepare (a `profile switch` prepares again): reusing the
  // one lash is in would keep the old limits and fork the new helpers inside it.
  static unsigned generation = 0;
  std::string name = "lash-" + std::to_string(getpid()) + (generation ? "-" + std::to_string(generation) : "");
  ++generation;
  auto cg = create_session_cgroup(caps, plan.limits, name);
  if (!cg) return cg.error();
  p.cgroup_dirs = cg->dirs();
  p.pids_limited = cg->pids_limited;
  for (auto& n : cg->notes) p.notes.push_back(std::move(n));
  // The namespace helper works while lash computes the closure. Its task is worked
  // out first (the watchdog needs the paths to quarantine); the watchdog is forked
  // before lash enters the session's pid namespace (it must stay outside, to clean up
  // after the session and see lash), and moves lash into the v2 cgroup only once the
  // helper is forked: a pending cgroup migration blocks every fork.
  start_namespace(p, plan, caps);
  bool want_watchdog = !p.cgroup_dirs.empty() || !p.tmpdir.empty() || !p.ns_helper.quarantine.empty();
  if (want_watchdog) {
    std::vector<std::string> v2;
    if (!cg->v2_dir.empty()) v2.push_back(cg->v2_dir);
    WatchdogSpec ws{p.cgroup_dirs, p.tmpdir, v2, p.ns_helper.quarantine, {}};
    if (!caps.cgroup2_mount.empty()) ws.hierarchies.push_back({"", caps.cgroup2_mount});
    if (!caps.v1_pids.mount.empty()) ws.hierarchies.push_back({"pids", caps.v1_pids.mount});
    if (!caps.v1_memory.mount.empty()) ws.hierarchies.push_back({"memory", caps.v1_memory.mount});
    auto w = start_watchdog(std::move(ws));
    if (!w) {
      kill_all(p);
      return w.error();
    }
    p.watchdog = std::move(w->pipe);
    p.join_pending = std::move(w->joined);
    p.signal_relay = std::move(w->relay);
    p.watchdog_go = std::move(w->go);
  }
  if (auto r = enter_pid_namespace(p, plan, caps); !r) {
    kill_all(p);
    return r.error();
  }
  if (!p.ns_started) start_namespace(p, plan, caps);  // now wanted for the session's /proc
  spawn_namespace(p);
  p.watchdog_go.reset();  // the watchdog may move lash now (EOF is its signal)
  // lash's forks are born in the new pid namespace from now on: without its init the
  // next fork would become it. Nothing of the profile may run then.
  if (session_init_pid() == 0) {
    Error e = p.ns_start_error ? *p.ns_start_error : Error{"no helper was started", "", EIO, {}};
    kill_all(p);
    return Error{"cannot start the init of the session's pid namespace: " + e.message(), "", e.err, {}};
  }
  if (!want_watchdog) return {};
  // v1 (hybrid hosts): a thread moving itself ("0" to `tasks`) skips the lock that
  // costs the grace period, and lash is single-threaded, so this is cheap and done
  // here, after the watchdog was forked outside. cgroup v2 has no such path for a
  // domain cgroup (cgroup.threads refuses), hence the watchdog.
  for (const std::string& d : cg->v1_dirs) {
    if (auto r = move_self_by_thread(d); !r) {
      (void)finish_join(p);
      kill_all(p);
      return r.error();
    }
  }
  p.v1_tracks = !cg->v1_dirs.empty();
  return {};
}

namespace {
// The session's network namespace (netns.h). It needs CAP_NET_ADMIN over a namespace
// of its own: root, or lash inside the user namespace it made for the session's pid
// namespace. Where it cannot be made, `enforce` refuses the profile's commands (they
// would otherwise reach every host) and `warn` runs them unconfined and says so.
Result<void> make_network(Prepared& p, const SandboxPlan& plan) {
  if (!plan.net_relay) return {};
  auto refuse = [&](const std::string& why) -> Result<void> {
    if (plan.net_enforcement == Enforcement::enforce)
      return Error{"the network rules cannot be enforced: " + why, "", EPERM, {}};
    p.notes.push_back("[network] not enforced (" + why + "); enforcement = warn: programs reach the network directly");
    return {};
  };
  if (geteuid() != 0 && !in_own_user_namespace())
    return refuse("the session's network namespace needs a user namespace of the session's own, which this "
                  "kernel refuses to this user");
  const char* mode = getenv("LASH_NET_INTERCEPTION");
  auto net = make_session_network(plan.relay_ports, plan.bind_ports, mode && std::string(mode) == "local");
  if (!net) return refuse(net.error().message());
  p.netns = std::move(net->netns);
  p.relay_listeners = std::move(net->listeners);
  p.net_mode = net->mode;
  if (!net->note.empty()) p.notes.push_back(net->note);
  return {};
}
}  // namespace

Result<Prepared> prepare(const SandboxPlan& plan, const Capabilities& caps, Prepared begun) {
  Prepared p = std::move(begun);
  if (plan.empty()) return p;
  auto cleanup_on_error = [&](Error e) {
    (void)finish_join(p);  // never leave the move in flight behind a cleanup
    kill_all(p);
    return e;
  };
  if (auto r = check_fs_refusals(&p, plan); !r) return cleanup_on_error(r.error());
  if (auto r = begin_prepare(p, plan, caps); !r) return cleanup_on_error(r.error());

  // The ruleset and the seccomp program are made while the namespace helper still
  // works (on a second CPU); only the rule for /proc waits for it, since a private
  // /proc is another inode than the host's.
  std::vector<std::string> later;
  if (plan.restrict_fs) later.push_back("/proc");  // finish_namespace() may start it yet
  LandlockRuleset ruleset;
  if (auto r = prepare_landlock(p, plan, caps, later, ruleset); !r) return cleanup_on_error(r.error());
  if (auto r = prepare_seccomp(p, plan, caps); !r) return cleanup_on_error(r.error());
  unique_fd private_proc;
  if (auto r = finish_namespace(p, plan, caps, private_proc); !r) return cleanup_on_error(r.error());
  std::vector<OpenedPath> opened;
  if (private_proc) opened.push_back({"/proc", private_proc.get()});
  if (auto r = finish_landlock(p, plan, later, opened, ruleset); !r) return cleanup_on_error(r.error());
  reap_namespace_helper(p.ns_helper);  // it has exited by now

#if defined(__SANITIZE_ADDRESS__)
  // A sanitizer build of lash reserves terabytes of address space in every subshell
  // (the session's forks are lash), so RLIMIT_AS would kill them; the cgroup's
  // memory.max still applies. Release builds always set it; docs/sandbox.md says so.
#else
  add_rlimit(p, RLIMIT_AS, plan.limits.memory);
#endif
  add_rlimit(p, RLIMIT_CPU, plan.limits.cpu_seconds);
  add_rlimit(p, RLIMIT_FSIZE, plan.limits.file_size);
  add_rlimit(p, RLIMIT_NOFILE, plan.limits.open_files);
  if (!p.pids_limited) add_rlimit(p, RLIMIT_NPROC, plan.limits.processes);
  // In lash's own user namespace RLIMIT_NPROC counts per (namespace, uid): only the
  // session's processes. On lash itself (soft; the hard limit stays for a later
  // profile) it also binds the shell's own forks, `while :; do sleep 9 & done`.
  if (in_own_user_namespace()) {
    // The soft limit lash had before any profile set one: a later profile without a
    // process limit (or with a larger one) puts it back.
    static struct rlimit original {};
    static bool saved = false;
    struct rlimit cur {};
    if (getrlimit(RLIMIT_NPROC, &cur) != 0) return cleanup_on_error(sys_error("cannot limit lash itself", "", errno));
    if (!saved) {
      original = cur;
      saved = true;
    }
    struct rlimit lim {original.rlim_cur, cur.rlim_max};
    if (!p.pids_limited && plan.limits.processes) {
      rlim_t v = static_cast<rlim_t>(plan.limits.processes);
      if (lim.rlim_cur == RLIM_INFINITY || v < lim.rlim_cur) lim.rlim_cur = v;
    }
    if (lim.rlim_max != RLIM_INFINITY && lim.rlim_cur > lim.rlim_max) lim.rlim_cur = lim.rlim_max;
    if (lim.rlim_cur != cur.rlim_cur && setrlimit(RLIMIT_NPROC, &lim) != 0)
      return cleanup_on_error(sys_error("cannot limit lash itself", "", errno));
  }

  if (auto r = make_network(p, plan); !r) return cleanup_on_error(r.error());

  for (const PathRule& r : plan.paths)
    if (r.origin == "baseline" && (r.rights & rights::write) && r.path.compare(0, 5, "/dev/") == 0 &&
        r.path != "/dev/pts")
      p.direct_devices.push_back(r.path);

  p.drop_caps = plan.drop_capabilities;
  p.no_new_privs = plan.no_new_privs || p.landlock.valid() || !p.seccomp.empty();
  p.close_fds = plan.close_fds;

  // Last: from here on lash and all it forks are in the session cgroup. With v1
  // cgroups that hold lash already (hybrid hosts) every child is found through them
  // at exit, so the v2 move may land later; kill_all() waits for it.
  if (!p.v1_tracks)
    if (auto r = finish_join(p); !r) return cleanup_on_error(r.error());
  return p;
}

std::vector<std::string> kill_all(Prepared& p) {
  p.watchdog_go.reset();
  // The relay ends with the session. A lash that applied the sandbox to itself (a
  // failed `exec`) may no longer signal it (Landlock scoping): then it is not waited
  // for; it dies with the session's pid namespace when lash exits.
  if (p.relay_pid > 0) {
    if (kill(p.relay_pid, SIGKILL) == 0)
      while (waitpid(p.relay_pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    p.relay_pid = -1;
  }
  reap_namespace_helper(p.ns_helper);
  // A v2 move still in flight (hybrid hosts, prepare() did not wait) may land at any
  // moment: then no cgroup is killed as a whole, every other pid is (the v1 cgroups
  // hold all children), and the watchdog removes the directories after lash exits.
  bool may_arrive = false;
  if (p.join_pending) {
    struct pollfd answered = {p.join_pending.get(), POLLIN, 0};
    may_arrive = poll(&answered, 1, 0) != 1;
    if (!may_arrive) (void)finish_join(p);
  }
  // lash is in the cgroups itself: everything else dies now; the directories lash
  // is still in are removed by the watchdog once lash has exited.
  kill_and_remove(p.cgroup_dirs, getpid(), may_arrive);
  p.cgroup_dirs.clear();
  std::vector<std::string> moved = quarantine_planted(p.quarantine);  // nothing runs to recreate them
  p.quarantine.clear();
  if (!p.tmpdir.empty()) remove_tree(p.tmpdir);
  p.tmpdir.clear();
  p.watchdog.reset();  // the watchdog wakes, finds nothing left, and exits
  return moved;
}

}  // namespace lash::sandbox
