#include "exec/session.h"
#include "sandbox/plan_json.h"
#include "sandbox/session_registry.h"
#include "policy/auto_detect.h"
#include "policy/user_config.h"

#include "exec/net_relay_start.h"

#include <fcntl.h>

#include <sys/syscall.h>
#include <limits.h>
#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cerrno>
#include <cstring>

#include "base/fileio.h"
#include "exec/denial_limit.h"
#include "exec/denial_watch.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "policy/env_patterns.h"
#include "policy/explain.h"
#include "policy/facts_cache.h"
#include "policy/session_facts.h"
#include "policy/session_select.h"
#include "sandbox/caps.h"
#include "sandbox/prepare.h"
#include "sandbox/compile.h"
#include "sandbox/plan.h"

namespace lash::exec {

namespace {
pid_t g_registered = 0;  // the lash whose session has a registry entry (not its subshells)
void register_in_registry(const Session& s);
}  // namespace

// machine_notes.cpp: a note about the machine is said once per user and machine.
bool say_note_now(const std::string& note);
namespace {

std::unique_ptr<Session> g_session;

std::string user_name() {
  struct passwd* pw = ::getpwuid(::getuid());
  if (pw && pw->pw_name) return pw->pw_name;
  return std::to_string(::getuid());
}

// A session id that is unique enough to tell sessions apart in one audit log:
// start time and pid.
std::string make_session_id() {
  struct timespec ts;
  ::clock_gettime(CLOCK_REALTIME, &ts);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lx-%x", static_cast<unsigned long>(ts.tv_sec), static_cast<unsigned>(::getpid()));
  return buf;
}

void warn(const std::string& msg) { write_all(2, "lash: warning: " + msg + "\n"); }

policy::SessionEnv session_env_impl(Shell& sh) {
  policy::SessionEnv env;
  const std::string* path = sh.vars.get("PATH");
  env.path_var = path ? *path : "/usr/local/bin:/usr/bin:/bin";
  char cwd[PATH_MAX];
  env.start_dir = ::getcwd(cwd, sizeof cwd) ? cwd : "/";
  const std::string* home = sh.vars.get("HOME");
  env.home = home ? *home : "";
  return env;
}

policy::EnvOp to_policy(Vars::EnvOp op) {
  switch (op) {
    case Vars::EnvOp::set: return policy::EnvOp::set;
    case Vars::EnvOp::unset: return policy::EnvOp::unset;
    case Vars::EnvOp::export_var: return policy::EnvOp::export_var;
    case Vars::EnvOp::readonly: return policy::EnvOp::readonly;
  }
  return policy::EnvOp::set;
}

}  // namespace

Session* current_session() { return g_session.get(); }

policy::SessionEnv session_env_of(Shell& sh) { return session_env_impl(sh); }

namespace {
// The plan PROFILE would get in this session, with this machine's capabilities.
sandbox::SandboxPlan review_plan(Shell& sh, const policy::ResolvedProfile& profile) {
  Session* s = g_session.get();
  // As the real run (arm_sandbox): $LASH_HOME exists before the context looks at it.
  if (sandbox::needs_sandbox(profile)) (void)make_directories(policy::lash_home(), 0700);
  policy::SessionEnv env = s ? s->env : session_env_impl(sh);
  auto ctx = sandbox::make_session_context(profile, env);
  if (s && s->sandbox) return sandbox::compile(profile, ctx, s->sandbox->capabilities());
  return sandbox::compile(profile, ctx, sandbox::probe_capabilities());
}
}  // namespace

sandbox::SandboxPlan sandbox_review_plan(Shell& sh, const policy::ResolvedProfile& profile) {
  return review_plan(sh, profile);
}

std::string sandbox_review_text(Shell& sh, const policy::ResolvedProfile& profile) {
  sandbox::SandboxPlan plan = review_plan(sh, profile);
  std::string out = "\n[sandbox plan: what the kernel enforces on this machine]\n";
  for (auto& line : sandbox::plan_lines(plan)) out += "  " + line + "\n";
  return out;
}

policy::Json sandbox_review_json(Shell& sh, const policy::ResolvedProfile& profile) {
  return sandbox::plan_json(review_plan(sh, profile));
}

std::optional<std::string> sandbox_refusal_for(Shell& sh, const policy::ResolvedProfile& profile) {
  Session* s = g_session.get();
  // The active profile's sandbox, once made, may have met a refusal no plan predicts
  // (a namespace the kernel refused). Before it is made (a pending prepare hook, as
  // right after a switch), the refusal held is the previous profile's.
  if (s && s->active && s->active->name == profile.name)
    if (auto known = s->services.known_refusal(); known && !known->empty()) return known;
  if (!sandbox::needs_sandbox(profile)) return std::nullopt;
  sandbox::SandboxPlan plan = review_plan(sh, profile);
  auto r = sandbox::check_plan(plan, s && s->sandbox ? s->sandbox->capabilities() : sandbox::probe_capabilities());
  if (r) return std::nullopt;
  return r.error().message();
}

namespace {
// Every record goes through here. The first write that fails stops the session's
// programs and redirections (fail closed, the gate consults audit_failure): a
// session that must record its denials, or everything under [monitoring], cannot go
// on unrecorded. Said once, with the cause; later records are not attempted.
void write_record(Session& s, const audit::Record& record) {
  if (!s.audit_failure.empty()) return;
  auto w = s.sink->write(record);
  if (w) return;
  s.audit_failure = w.error().message();
  write_all(2, "lash: audit: cannot write the audit log: " + s.audit_failure + "\n");
  std::string profile = s.active ? s.active->name : "default";
  write_all(2, policy::explain::refusal_lines(
                   audit_failure_decision(profile, "run programs or open files any more", s.audit_failure)));
}
}  // namespace

void audit_decision(const policy::Action& action, const policy::Decision& decision) {
  Session* s = g_session.get();
  if (!decision.allowed() && !decision.advisory) note_denial();  // [monitoring] max_denials
  if (!s || !s->sink || !s->active) return;
  bool monitoring = s->active->values.monitoring_enabled.value;
  if (!audit::should_record(monitoring, decision)) return;
  if (s->audit_context.user.empty()) s->audit_context.user = user_name();  // NSS only when needed
  write_record(*s, audit::make_record(s->audit_context, action, decision));
}

sandbox::SandboxPlan active_session_plan() {
  Session* s = g_session.get();
  if (!s || !s->active) return {};
  auto ctx = sandbox::make_session_context(*s->active, s->env);
  return sandbox::compile(*s->active, ctx, s->sandbox ? s->sandbox->capabilities() : sandbox::probe_capabilities());
}

void audit_event(std::string_view kind, std::string_view target, std::string_view decision, std::string_view message,
                 const policy::Json& extra) {
  Session* s = g_session.get();
  if (!s || !s->sink) return;
  if (s->audit_context.user.empty()) s->audit_context.user = user_name();
  audit::Record r = audit::make_event(s->audit_context, kind, target, decision, message);
  for (auto it = extra.begin(); it != extra.end(); ++it)
    if (!r.action.contains(it.key())) r.action[it.key()] = it.value();
  write_record(*s, r);
}

void audit_not_found(const std::string& name) {
  Session* s = g_session.get();
  if (!s || !s->sink || !s->active || !s->active->values.monitoring_enabled.value) return;
  if (s->audit_context.user.empty()) s->audit_context.user = user_name();
  write_record(*s, audit::make_event(s->audit_context, "spawn", name, "not-found", ""));
}

// Ends the session's processes (cgroup kill, tmpdir removal) when the main shell
// ends, by exit, fatal error or TERM/HUP.
void end_session() {
  // Before kill_all: the explanations look at files in the session tmpdir.
  finish_denial_watch();  // only in the lash that started it
  if (g_session && g_registered == ::getpid()) sandbox::registry::unregister_session(g_session->id);
  if (!g_session || !g_session->sandbox) return;
  for (const std::string& what : g_session->sandbox->kill_all())
    warn("created during the session where a later git would run or follow it: " + what);
}

// Whether a session under PROFILE can produce an audit record at all: a profile
// that allows everything without monitoring (the default) has nothing to record,
// and its sessions should not create $LASH_HOME/audit.log.
bool may_record(const policy::ResolvedProfile& profile, const sandbox::SandboxPlan& plan) {
  const auto& v = profile.values;
  bool policy_can_deny = !v.spawn_any.value || !v.spawn_denylist.value.empty() || !v.file_redirect.value ||
                         !v.env_mutation.value || !v.env_safelist.value.empty();
  return policy_can_deny || !plan.empty() || v.monitoring_enabled.value;
}

namespace {
// Where answers are kept between sessions (the allowlist's real paths, the exec
// closure): $LASH_HOME/cache, as trusted as the profiles beside it, so not for a
// profile lash.conf assigned, which was loaded without them ("": no cache).
std::string session_cache_dir(const Session& s) {
  return s.selection.assigned ? "" : policy::lash_home() + "/cache";
}
}  // namespace

// The kernel sandbox is compiled and prepared on first use, before the first fork:
// a session that runs only builtins never pays for it.
void arm_sandbox(std::shared_ptr<const policy::ResolvedProfile> profile,
                 std::function<const policy::SessionFacts&()> facts) {
  ActiveServices& svc = g_session->services;
  // Each activation answers afresh: a refusal of the profile switched away from
  // must not refuse the programs of the next one. Until the new sandbox is made,
  // the previous one stays in force for anything already running under it.
  svc.refusal_.clear();
  svc.arm = [&svc, profile, facts]() {
    Session& s = *g_session;
    sandbox::SandboxPlan plan;  // empty: a plain shell (the default profile)
    // Subshells run inside the sandbox, where $LASH_HOME is out of reach: they
    // write their audit records through this fd, opened before the first fork. It
    // also makes $LASH_HOME exist before the sandbox starts, so the namespace keeps
    // it read-only (compile.h, own_state) rather than quarantining it as planted.
    auto open_audit = [&](bool sandboxed) {
      if (!sandboxed && !may_record(*profile, plan)) return;
      if (s.audit_context.user.empty()) s.audit_context.user = user_name();
      if (auto r = s.sink->open_now(); !r)
        write_all(2, "lash: audit: cannot open the audit log: " + r.error().message() + "\n");
      else
        sandbox::reserve_file(s.sink->fd());  // not to be reopened by a program through /dev/fd/N
    };
    // Without a sandbox, skip the probe and the session's I/O entirely.
    if (sandbox::needs_sandbox(*profile)) {
      // $LASH_HOME exists before the context looks where it is: one that would only be
      // made later, inside a writable grant, refuses the profile's commands instead.
      (void)make_directories(policy::lash_home(), 0700);
      open_audit(true);
      const sandbox::Capabilities& caps = s.sandbox->capabilities();
      auto ctx = sandbox::make_session_context(*profile, s.env, facts(), /*with_closure=*/false);
      plan = sandbox::compile(*profile, ctx, caps);
      // Start the session cgroup now: moving lash into it may wait for the kernel
      // (cgroup.h), which then overlaps the exec closure and the ruleset.
      if (!plan.empty() && !plan.spawn_any) {
        if (auto r = s.sandbox->begin(plan); !r) {
          svc.refusal_ = r.error().message();
          return;
        }
        sandbox::add_exec_closure(ctx, *profile, session_cache_dir(s));
        plan = sandbox::compile(*profile, ctx, caps);
      }
    } else {
      open_audit(false);
    }
    if (plan.empty()) {
      svc.prepared_ = nullptr;  // the default profile: a plain shell
      return;
    }
    auto r = s.sandbox->prepare(plan);
    for (auto& note : s.sandbox->take_notes())
      if (say_note_now(note)) warn(note);
    if (!r) {
      svc.refusal_ = r.error().message();
      return;
    }
    if (auto relay = start_network_relay(s, profile); !relay) {
      svc.refusal_ = relay.error().message();
      return;
    }
    svc.refusal_.clear();
    svc.prepared_ = &s.sandbox->prepared();
  };
}

const sandbox::Prepared& ActiveServices::prepared() {
  make();
  return prepared_ ? *prepared_ : none_;
}

const std::string& ActiveServices::refusal() {
  make();
  return refusal_;
}

std::optional<std::string> ActiveServices::known_refusal() const {
  if (arm) return std::nullopt;
  return refusal_;
}

bool ActiveServices::has_broker() {
  make();
  return prepared_ != nullptr;
}

int ActiveServices::open_for_user(const std::string& path, int flags, const std::function<bool()>& give_up, int* err) {
  auto fd = g_session->sandbox->open_for_user(path, flags, 0666, give_up);
  if (!fd) {
    *err = fd.error().err ? fd.error().err : EACCES;
    return -1;
  }
  return fd->release();
}

int ActiveServices::relay_signal(pid_t pid, int sig) {
  if (!prepared_) return EPERM;  // no relay: kill's own answer stands
  return g_session->sandbox->relay_signal(pid, sig);
}

ActiveServices::StdFdsHeld::StdFdsHeld() {
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int got = ::open("/dev/null", O_RDWR | O_CLOEXEC);  // the lowest free: FD itself
    if (got == fd) {
      held[fd] = got;
    } else if (got >= 0) {
      ::close(got);
    }
  }
}

ActiveServices::StdFdsHeld::~StdFdsHeld() {
  for (int fd : held)
    if (fd >= 0) ::close(fd);
}

pid_t ActiveServices::broker_pid() {
  if (!g_session || !g_session->sandbox) return -1;
  return g_session->sandbox->broker_pid();
}

void ActiveServices::child_reaped(pid_t pid) {
  if (g_session && g_session->sandbox) g_session->sandbox->child_reaped(pid);
}

void ActiveServices::audit(const policy::Action& action, const policy::Decision& decision) {
  audit_decision(action, decision);
}

void audit_process(const policy::Action& action, const policy::Decision& decision, pid_t pid, int status) {
  Session* s = g_session.get();
  if (!s || !s->sink) return;
  if (s->audit_context.user.empty()) s->audit_context.user = user_name();
  audit::Record r = audit::make_record(s->audit_context, action, decision);
  r.pid = pid;
  if (status >= 0) r.exit_status = status;
  write_record(*s, r);
}

namespace {
// What [environment] deny names never enters the shell, not only the children's
// environment: a variable the shell holds is expanded into arguments, here-documents
// and builtin output, and no filter on the environment sees those. Dropped when the
// profile becomes active (session start, `profile switch`, `profile reload`); what the
// script assigns afterwards is its own value, under the mutation rules, and the deny
// list still keeps it out of every child's environment (ChildEnv).
void drop_denied_variables(Shell& sh, const policy::Profile& v) {
  if (v.env_deny.value.empty()) return;
  policy::EnvPatterns deny(v.env_deny.value);
  sh.vars.drop_if([&deny](std::string_view name) { return deny.matches(name); });
}
}  // namespace

// What a refusal's suggestion ends with under PROFILE (policy::explain).
static std::string session_advice(const Session& s, const policy::ResolvedProfile& profile) {
  bool can_switch = profile.values.profile_switch.value;
  if (s.selection.assigned && !can_switch)
    return "This profile is assigned by " + policy::system_dir() +
           "/lash.conf and may not be switched: ask the administrator.";
  std::string edit = profile.chain.empty() || profile.chain[0].source != policy::Source::user
                         ? "Use a profile of your own that allows it (profile create NAME --from " + profile.name + ")"
                         : "Change the key (profile edit " + profile.name + ")";
  return edit + (can_switch ? ", or profile switch NAME to one that allows it (profile list)."
                            : ", or start lash with one that allows it (lash -p NAME).");
}

void activate_profile(Shell& sh, std::shared_ptr<const policy::ResolvedProfile> profile) {
  Session& s = *g_session;
  s.active = profile;
  policy::explain::set_session_advice(session_advice(s, *profile));
  s.audit_context.profile = profile->name;
  auto gate = std::make_shared<PolicyGate>();
  // The environment the facts are resolved against is the one at activation.
  // Resolved once per activation, shared by the engine and the sandbox plan.
  auto facts = std::make_shared<std::optional<policy::SessionFacts>>();
  // Kept between sessions like the exec closure (arm_sandbox).
  auto get_facts = [profile, env = s.env, facts, cache_dir = session_cache_dir(s)]() -> const policy::SessionFacts& {
    if (!*facts) *facts = policy::cached_session_facts(cache_dir, *profile, env);
    return **facts;
  };
  gate->make_engine = [profile, get_facts]() { return std::make_shared<const policy::Engine>(profile, get_facts()); };
  gate->profile_name = profile->name;
  gate->audit = audit_decision;
  gate->audit_process = audit_process;
  gate->audit_not_found = audit_not_found;
  gate->audit_failure = [] { return g_session ? g_session->audit_failure : std::string(); };
  gate->monitoring = profile->values.monitoring_enabled.value;
  set_denial_limit(profile->values.max_denials.value);
  const auto& v = profile->values;
  if (v.env_pass.set || !v.env_deny.value.empty() || !v.env_force.value.empty())
    gate->child_env = std::make_shared<const policy::ChildEnv>(v);
  gate->always_env.push_back("LASH_SESSION=" + s.id);
  sh.gate = std::move(gate);
  drop_denied_variables(sh, v);
  sh.max_processes = v.max_processes.value;
  sandbox::SandboxPlan quick = sandbox::plan_without_context(*profile);  // needs_sandbox's plan, once
  sh.fd_names_are_shell_fds = !quick.empty();
  sh.keeps_own_file_size_hard = may_record(*profile, quick);
  // Opened now, not at the first record: a script's `ulimit -n` could otherwise keep
  // lash from opening it at all. A failure is said by the first record's write, which
  // tries again.
  if (sh.keeps_own_file_size_hard && s.sink->open_now()) sandbox::reserve_file(s.sink->fd());
  arm_sandbox(profile, get_facts);
  sh.set_services(&s.services);
  if (g_registered == ::getpid()) register_in_registry(s);  // `profile switch`: the registry shows the new one
}

namespace {

// Closes every fd above 2. Called in start_session before lash opens anything of its
// own (main opens nothing before it, and the profile files are closed after reading),
// so these are exactly the fds lash inherited from its invoker.
void close_inherited_fds() {
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  for (int fd = 3; fd < 65536; ++fd) ::close(fd);  // kernels before 5.9
}

}  // namespace

namespace {

// `session list` / `session kill` find the session through its registry entry. A
// registry that cannot be written costs the session nothing but being listed.
void register_in_registry(const Session& s) {
  sandbox::registry::Entry e;
  e.id = s.id;
  e.pid = ::getpid();
  e.uid = ::getuid();
  e.profile = s.active ? s.active->name : "";
  char tty[256];
  if (::isatty(0) && ::ttyname_r(0, tty, sizeof tty) == 0) e.tty = tty;
  e.started = static_cast<int64_t>(::time(nullptr));
  e.proc_start = sandbox::registry::proc_start_of(e.pid);
  g_registered = sandbox::registry::register_session(e).ok() ? e.pid : 0;
  if (std::string w = sandbox::registry::take_warning(); !w.empty()) write_all(2, w);  // a squatted registry
}

}  // namespace


Result<void> start_session(Shell& sh, std::optional<std::string> requested) {
  auto sel = policy::select_session_profile(std::move(requested));
  if (!sel) return sel.error();
  g_session = std::make_unique<Session>();
  Session& s = *g_session;
  s.selection = std::move(sel.value());
  for (const auto& w : s.selection.warnings) warn(w);
  s.id = make_session_id();
  s.audit_context.session = s.id;
  s.sink = std::make_unique<audit::JsonlFileSink>(policy::lash_home() + "/audit.log");
  s.env = session_env_impl(sh);
  s.sandbox = std::make_unique<sandbox::SessionSandbox>();
  // One compile, without the session's I/O, tells both whether a sandbox is needed
  // and its limits.
  sandbox::SandboxPlan quick = sandbox::plan_without_context(*s.selection.profile);
  if (!quick.empty()) {
    // Channels the invoker opened outside any sandbox (a descriptor on a file outside
    // the grants would reach every child): a sandboxed session does not keep them.
    close_inherited_fds();
    // The shell's own work is bounded like its children's (a builtin loop, a
    // builtin write). A write past the file-size limit then fails with EFBIG rather
    // than killing the shell: a handler, not SIG_IGN, so children get SIGXFSZ back.
    const sandbox::Limits& limits = quick.limits;
    if (limits.cpu_seconds) sh.notice_cpu_limit();
    if (limits.file_size) {
      sh.catch_signal_quietly(SIGXFSZ);
      sh.file_size_cap = static_cast<rlim_t>(limits.file_size);
    }
    if (auto r = sandbox::limit_self(limits); !r) return r.error();
  }
  if (s.selection.profile->values.tmpdir.value == policy::Tmpdir::session) {
    auto tmp = s.sandbox->make_tmpdir();  // removed at exit even if never prepared
    if (!tmp) return tmp.error();
    s.env.tmpdir = *tmp;
    sh.vars.set("TMPDIR", *tmp, true);
  }
  sh.exit_hook = end_session;
  activate_profile(sh, s.selection.profile);
  if (!s.selection.assigned_name.empty() && s.selection.profile->name != s.selection.assigned_name) {
    // The assigned profile could not be loaded: the session fell back. Record it.
    s.audit_context.user = user_name();
    write_record(s, audit::make_event(s.audit_context, "profile", s.selection.assigned_name, "fallback",
                                      s.selection.warnings.empty() ? "" : s.selection.warnings.front()));
  }
  sh.vars.set("LASH_SESSION", s.id, true);
  register_in_registry(s);
  if (sh.opt.interactive) suggest_at_start(sh);
  // Changes of exported variables that no planned command announced (for-loop
  // variables, ${x=...}, read, arithmetic) are checked here.
  sh.vars.env_guard = [&sh](std::string_view name, Vars::EnvOp op) {
    return gate_allows_env(sh, std::string(name), to_policy(op));
  };
  return {};
}

}  // namespace lash::exec
