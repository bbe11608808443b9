// compile(): every profile key that reaches the kernel layer, with fake capabilities
// and a fake session context (no I/O anywhere in these tests).
#include <doctest/doctest.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <limits.h>

#include <algorithm>
#include <string>

#include "sandbox/compile.h"
#include "sandbox/landlock.h"
#include "sandbox/landlock_abi.h"
#include "sandbox/prepare.h"

using namespace lash::sandbox;
namespace policy = lash::policy;

namespace {

Capabilities full_caps() {
  Capabilities c;
  c.landlock_abi = 7;
  c.seccomp = true;
  c.no_new_privs = true;
  c.cgroup2_mount = "/sys/fs/cgroup";
  c.cgroup2_current = "/user";
  c.cgroup2_writable = true;
  c.cgroup2_controllers = {"pids", "memory"};
  c.user_namespaces = true;
  return c;
}

// The `default` profile's values.
policy::ResolvedProfile open_profile() {
  policy::ResolvedProfile rp;
  rp.name = "t";
  rp.values.spawn_any.value = true;
  rp.values.read_write.value = {"/"};
  rp.values.protect.value = {};
  rp.values.block_all_others.value = false;
  return rp;
}

// A `ci`-like profile: allowlist, workdir writable.
policy::ResolvedProfile ci_profile() {
  policy::ResolvedProfile rp;
  rp.name = "ci";
  rp.values.spawn_any.value = false;
  rp.values.include_workdir.value = true;
  rp.values.env_deny.value = {"LD_PRELOAD", "LD_LIBRARY_PATH"};
  rp.values.block_all_others.value = false;
  rp.values.protect.value = {};
  return rp;
}

SessionContext ctx_with_git(const std::string& work = "/home/u/proj") {
  SessionContext ctx;
  ctx.env.start_dir = work;
  ctx.env.home = "/home/u";
  ctx.facts.writable_roots = {{work, "filesystem.include_workdir"}};
  ctx.facts.allow_real = {"/usr/bin/git"};
  ctx.facts.allow_real_by_name = {{"git", "/usr/bin/git"}};
  ctx.closure.files = {
      {"/usr/bin/git", ExecFile::Role::program, ""},
      {"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", ExecFile::Role::interpreter, "/usr/bin/git"},
      {"/usr/lib/x86_64-linux-gnu/libz.so.1", ExecFile::Role::library, "/usr/bin/git"},
  };
  return ctx;
}

const PathRule* find(const SandboxPlan& p, const std::string& path) {
  for (const auto& r : p.paths)
    if (r.path == path) return &r;
  return nullptr;
}

bool has_text(const std::vector<std::string>& v, const std::string& needle) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(needle) != std::string::npos; });
}

constexpr unsigned R = rights::read, W = rights::write, X = rights::execute, D = rights::ioctl_dev;

}  // namespace

TEST_CASE("compile: the default profile's values give an empty plan (plain shell)") {
  SessionContext ctx;
  auto plan = compile(open_profile(), ctx, full_caps());
  CHECK(plan.empty());
  CHECK(!plan.restrict_fs);
  CHECK(!plan.seccomp);
  CHECK(plan.paths.empty());
}

TEST_CASE("compile: limits alone turn on the hardening but not filesystem rules") {
  auto rp = open_profile();
  rp.values.max_open_files.value = 64;
  rp.values.max_cpu_seconds.value = 10;
  rp.values.max_file_size.value = 1024;
  rp.values.max_memory.value = 1 << 30;
  rp.values.max_processes.value = 100;
  SessionContext ctx;
  auto plan = compile(rp, ctx, full_caps());
  CHECK(!plan.empty());
  CHECK(!plan.restrict_fs);
  CHECK(plan.seccomp);
  CHECK(plan.no_new_privs);
  CHECK(plan.close_fds);
  CHECK(plan.drop_capabilities);
  CHECK(plan.limits.open_files == 64);
  CHECK(plan.limits.cpu_seconds == 10);
  CHECK(plan.limits.file_size == 1024);
  CHECK(plan.limits.memory == 1 << 30);
  CHECK(plan.limits.processes == 100);
  CHECK(plan.unenforced.empty());  // pids and memory delegated in full_caps
}

TEST_CASE("compile: limits without controllers say what falls back") {
  auto rp = open_profile();
  rp.values.max_processes.value = 100;
  rp.values.max_memory.value = 1 << 30;
  auto caps = full_caps();
  caps.cgroup2_controllers = {};
  SessionContext ctx;
  auto plan = compile(rp, ctx, caps);
  CHECK(has_text(plan.unenforced, "RLIMIT_NPROC"));
  CHECK(has_text(plan.unenforced, "address space"));
  caps.v1_pids.writable = true;  // hybrid host: v1 pids
  plan = compile(rp, ctx, caps);
  CHECK(!has_text(plan.unenforced, "RLIMIT_NPROC"));
}

TEST_CASE("compile: spawn_any=false grants per file, never the program directories whole") {
  auto plan = compile(ci_profile(), ctx_with_git(), full_caps());
  REQUIRE(plan.restrict_fs);
  CHECK(!plan.spawn_any);
  CHECK(plan.deny_memfd_exec);
  // The program roots are listable only (READ_DIR): names, never contents or exec.
  for (const char* root : {"/usr", "/lib"}) {
    const PathRule* r = find(plan, root);
    REQUIRE(r);
    CHECK(r->rights == lash::sandbox::rights::list);
  }
  CHECK(find(plan, "/usr/bin") == nullptr);
  const PathRule* git = find(plan, "/usr/bin/git");
  REQUIRE(git);
  CHECK(git->rights == (R | X));
  CHECK(git->file);
  CHECK(git->origin == "spawn_allowlist");
  const PathRule* ld = find(plan, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  REQUIRE(ld);
  CHECK(ld->rights == (R | X));
  CHECK(ld->origin == "interpreter");
  const PathRule* z = find(plan, "/usr/lib/x86_64-linux-gnu/libz.so.1");
  REQUIRE(z);
  CHECK(z->rights == R);  // libraries are mapped, not executed
  CHECK(z->origin == "library");
}

TEST_CASE("compile: /etc is granted entry by entry when the context lists it (secrets left out)") {
  auto ctx = ctx_with_git();
  ctx.etc_entries = {"/etc/passwd", "/etc/hosts", "/etc/ssh/ssh_config"};
  auto plan = compile(ci_profile(), ctx, full_caps());
  CHECK(find(plan, "/etc") == nullptr);
  CHECK(find(plan, "/etc/passwd")->rights == R);
  CHECK(find(plan, "/etc/ssh/ssh_config")->rights == R);
  CHECK(find(plan, "/etc/shadow") == nullptr);
  const auto& secrets = etc_secrets();
  CHECK(std::find(secrets.begin(), secrets.end(), "shadow") != secrets.end());
  CHECK(std::find(secrets.begin(), secrets.end(), "ssh_host_*_key") != secrets.end());
}

TEST_CASE("compile: runtime directories of allowlisted programs are read-only") {
  auto ctx = ctx_with_git();
  ctx.closure.data_dirs = {{"/usr/lib/python3.11", ExecFile::Role::library, "/usr/bin/python3.11"}};
  auto plan = compile(ci_profile(), ctx, full_caps());
  const PathRule* d = find(plan, "/usr/lib/python3.11");
  REQUIRE(d);
  CHECK(d->rights == R);
  CHECK(d->origin == "runtime");
}

TEST_CASE("compile: the system baseline") {
  auto plan = compile(ci_profile(), ctx_with_git(), full_caps());
  CHECK(find(plan, "/etc")->rights == R);
  CHECK(find(plan, "/usr/share")->rights == R);
  for (const char* dev : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty",
                          "/dev/pts", "/dev/ptmx"}) {
    const PathRule* r = find(plan, dev);
    REQUIRE(r);
    CHECK(r->rights == (R | W | D));
  }
  CHECK(find(plan, "/proc")->rights == R);

  auto rp = ci_profile();
  rp.values.spawn_any.value = true;
  rp.values.read_write.value = {"/home/u/proj"};
  plan = compile(rp, ctx_with_git(), full_caps());
  for (const char* d : {"/usr", "/lib", "/lib64", "/bin", "/sbin"}) CHECK(find(plan, d)->rights == (R | X));

  rp.values.system_paths.value = false;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(find(plan, "/usr") == nullptr);
  CHECK(find(plan, "/etc") == nullptr);
  CHECK(find(plan, "/dev/null") == nullptr);
}

TEST_CASE("compile: writable grants are never executable with an allowlist (W^X)") {
  auto plan = compile(ci_profile(), ctx_with_git(), full_caps());
  const PathRule* w = find(plan, "/home/u/proj");
  REQUIRE(w);
  CHECK(w->rights == (R | W));
  CHECK(w->origin == "include_workdir");
  CHECK(plan.noexec == std::vector<std::string>{"/home/u/proj"});  // not even through ld.so

  auto rp = ci_profile();
  rp.values.spawn_any.value = true;
  rp.values.read_write.value = {"/data"};
  auto ctx = ctx_with_git();
  ctx.facts.writable_roots.push_back({"/data", "filesystem.read_write"});
  plan = compile(rp, ctx, full_caps());
  CHECK(find(plan, "/data")->rights == (R | W | X));
  CHECK(plan.noexec.empty());
}

TEST_CASE("compile: an allowlisted program inside a writable grant is not made executable") {
  auto ctx = ctx_with_git();
  ctx.closure.files.push_back({"/home/u/proj/tool", ExecFile::Role::program, ""});
  auto plan = compile(ci_profile(), ctx, full_caps());
  CHECK(find(plan, "/home/u/proj/tool") == nullptr);
  CHECK(has_text(plan.warnings, "/home/u/proj/tool is inside a writable grant"));
}

TEST_CASE("compile: read_only expands against the start dir and HOME; x only with spawn_any") {
  auto rp = ci_profile();
  rp.values.read_only.value = {".", "~/docs"};
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(find(plan, "/home/u/proj")->rights == (R | W));  // "." and the workdir, merged
  CHECK(find(plan, "/home/u/proj")->origin == "read_only,include_workdir");
  const PathRule* docs = find(plan, "/home/u/docs");
  REQUIRE(docs);
  CHECK(docs->rights == R);
  CHECK(docs->origin == "read_only");
  CHECK(docs->ino == 0);  // nothing was resolved: unchecked
  rp.values.spawn_any.value = true;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(find(plan, "/home/u/docs")->rights == (R | X));
  // What the context resolved is carried, so the ruleset can refuse a swapped path.
  auto ctx = ctx_with_git();
  ctx.read_only_ids["/home/u/docs"] = {7, 42};
  plan = compile(rp, ctx, full_caps());
  CHECK(find(plan, "/home/u/docs")->dev == 7);
  CHECK(find(plan, "/home/u/docs")->ino == 42);
}

TEST_CASE("compile: grants that make programs readable weaken the allowlist and say so") {
  auto rp = ci_profile();
  rp.values.read_only.value = {"/usr"};
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(has_text(plan.warnings, "read_only = /usr makes the programs in /usr/bin readable"));
  rp.values.read_only.value = {"/usr/share/doc"};
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!has_text(plan.warnings, "readable, so the ELF interpreter"));
  // With spawn_any=true there is no allowlist to weaken.
  rp.values.read_only.value = {"/usr"};
  rp.values.spawn_any.value = true;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!has_text(plan.warnings, "ELF interpreter"));
}

TEST_CASE("compile: an allowlisted interpreter is named in the warnings") {
  auto ctx = ctx_with_git();
  ctx.facts.allow_real_by_name["python3"] = "/usr/bin/python3.11";
  auto plan = compile(ci_profile(), ctx, full_caps());
  CHECK(has_text(plan.warnings, "interpreter python3"));
  CHECK(!has_text(plan.warnings, "interpreter git"));
}

TEST_CASE("compile: tmpdir is a writable, non-executable grant and is remembered for removal") {
  auto rp = ci_profile();
  rp.values.tmpdir.value = policy::Tmpdir::session;
  auto ctx = ctx_with_git();
  ctx.env.tmpdir = "/tmp/lash-0-abc";
  ctx.facts.writable_roots.push_back({"/tmp/lash-0-abc", "filesystem.tmpdir"});
  auto plan = compile(rp, ctx, full_caps());
  CHECK(plan.tmpdir == "/tmp/lash-0-abc");
  CHECK(find(plan, "/tmp/lash-0-abc")->rights == (R | W));
  CHECK(find(plan, "/tmp/lash-0-abc")->origin == "tmpdir");
  rp.values.protect.value = {".git/hooks"};
  plan = compile(rp, ctx, full_caps());
  CHECK(plan.protect == std::vector<std::string>{"/home/u/proj/.git/hooks"});  // not under the tmpdir
}

TEST_CASE("compile: protect paths are listed under every writable grant") {
  auto rp = ci_profile();
  rp.values.protect.value = {".git/hooks", ".git/config"};
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(plan.protect == std::vector<std::string>{"/home/u/proj/.git/hooks", "/home/u/proj/.git/config"});
  CHECK(has_text(plan.unenforced, "filesystem.protect"));
}

namespace {
OwnState own(const std::string& real, bool exists = true, std::vector<std::string> links = {}) {
  OwnState o;
  o.spelled = real;
  o.real = real;
  o.exists = exists;
  o.links = std::move(links);
  return o;
}
}  // namespace

TEST_CASE("compile: lash's own state is read-only inside a writable grant, and only there") {
  auto rp = ci_profile();
  auto ctx = ctx_with_git("/home/u");  // the workdir is HOME: ~/.lash is inside it
  ctx.own_state = {own("/home/u/.lash"), own("/etc/lash", false)};
  auto plan = compile(rp, ctx, full_caps());
  CHECK(plan.protect == std::vector<std::string>{"/home/u/.lash"});
  CHECK(plan.fs_refusals.empty());
  CHECK(!has_text(plan.warnings, "lies inside lash's own state"));
  // A grant elsewhere leaves it alone.
  ctx = ctx_with_git("/home/u/proj");
  ctx.own_state = {own("/home/u/.lash"), own("/etc/lash", false)};
  CHECK(compile(rp, ctx, full_caps()).protect.empty());
  // A grant inside it, or equal to it, is read-only (not writable, not a mount to
  // re-bind), and the plan says so.
  for (const char* inner : {"/home/u/.lash/profiles", "/home/u/.lash"}) {
    auto c = ctx;
    c.facts.writable_roots.push_back({inner, "filesystem.read_write"});
    plan = compile(rp, c, full_caps());
    REQUIRE(find(plan, inner));
    CHECK(find(plan, inner)->rights == R);
    CHECK(plan.protect.empty());
    CHECK(std::find(plan.noexec.begin(), plan.noexec.end(), std::string(inner)) == plan.noexec.end());
    CHECK(has_text(plan.warnings, std::string("read_write = ") + inner + " lies inside lash's own state (/home/u/.lash)"));
  }
  // The session tmpdir is removed at exit and never holds it.
  ctx = ctx_with_git("/home/u/proj");
  ctx.own_state = {own("/tmp/lash-0-abc/x")};
  ctx.facts.writable_roots.push_back({"/tmp/lash-0-abc", "filesystem.tmpdir"});
  CHECK(compile(rp, ctx, full_caps()).protect.empty());
}

TEST_CASE("compile: own state that a program could redirect or create refuses the filesystem policy") {
  auto rp = ci_profile();
  // Reached through a symlink inside a writable grant: a program could swap the link.
  auto ctx = ctx_with_git("/home/u");
  ctx.own_state = {own("/data/lash", true, {"/home/u/.lash"})};
  auto plan = compile(rp, ctx, full_caps());
  CHECK(has_text(plan.fs_refusals, "is reached through the symlink /home/u/.lash inside include_workdir = /home/u"));
  ctx = ctx_with_git("/home/u/proj");  // the link outside every writable grant is fine
  ctx.own_state = {own("/data/lash", true, {"/home/u/.lash"})};
  CHECK(compile(rp, ctx, full_caps()).fs_refusals.empty());
  // Missing, and would be made inside a writable grant.
  ctx = ctx_with_git("/home/u");
  ctx.own_state = {own("/home/u/.config/lash", false)};
  plan = compile(rp, ctx, full_caps());
  CHECK(has_text(plan.fs_refusals, "does not exist and would be made inside include_workdir = /home/u"));
  CHECK(plan.protect.empty());
  // Where it is cannot be told (even with no real path at all: a symlink loop).
  ctx.own_state = {own("", false)};
  ctx.own_state[0].spelled = "/home/u/loop/.lash";
  ctx.own_state[0].unsure = true;
  CHECK(has_text(compile(rp, ctx, full_caps()).fs_refusals, "cannot tell where /home/u/loop/.lash is"));
  // Another session's directory (the default ~/.lash while LASH_HOME points
  // elsewhere): protected when it exists, and when it does not (moved aside at the end
  // if made); one beneath a protected parent is covered by it.
  ctx.own_state = {own("/home/u/.lash", false), own("/home/u/.lash/profiles", false)};
  for (auto& o : ctx.own_state) o.in_use = false;
  plan = compile(rp, ctx, full_caps());
  CHECK(plan.fs_refusals.empty());
  CHECK(plan.protect == std::vector<std::string>{"/home/u/.lash"});
}

TEST_CASE("own_state_of: resolves like the kernel and lists every symlink met") {
  char tmpl[] = "/tmp/lash-ownstate-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  char buf[PATH_MAX];
  REQUIRE(realpath(tmpl, buf));
  std::string d = buf;
  auto mk = [&](const std::string& p) { REQUIRE(mkdir((d + p).c_str(), 0755) == 0); };
  auto ln = [&](const std::string& target, const std::string& p) { REQUIRE(symlink(target.c_str(), (d + p).c_str()) == 0); };
  mk("/m");
  mk("/m/lash");
  mk("/home");
  ln(d + "/l/lash", "/home/.lash");  // a link whose target goes through another link
  ln("m", "/l");
  mk("/sub");
  ln(d + "/sub", "/home/lnk");  // ".." after a symlink is taken in the link's target
  mk("/sub/.lash");
  mk("/.lash");
  ln("loop2", "/loop1");
  ln("loop1", "/loop2");

  auto a = own_state_of(d + "/home/.lash");
  CHECK(a.exists);
  CHECK(a.real == d + "/m/lash");
  CHECK(a.links == std::vector<std::string>{d + "/home/.lash", d + "/l"});

  auto b = own_state_of(d + "/home/lnk/../.lash");
  CHECK(b.exists);
  CHECK(b.real == d + "/.lash");  // the kernel's answer, not /home/.lash
  b = own_state_of(d + "/home/lnk/.lash");
  CHECK(b.real == d + "/sub/.lash");

  auto c = own_state_of(d + "/l/new/lash");  // missing: where it would be made
  CHECK(!c.exists);
  CHECK(!c.unsure);
  CHECK(c.real == d + "/m/new/lash");
  CHECK(c.links == std::vector<std::string>{d + "/l"});

  CHECK(own_state_of(d + "/loop1/x").unsure);
  CHECK(own_state_of(d + "/nope/../x").unsure);
  CHECK(own_state_of("relative/lash").unsure);
  (void)!system(("rm -rf '" + d + "'").c_str());
}

TEST_CASE("compile: local services (allow_bind, allow_loopback)") {
  auto rp = ci_profile();
  rp.values.block_all_others.value = true;
  rp.values.allow_hosts.value = {};
  rp.values.allow_ports.value = {};
  rp.values.allow_bind.value = {{8888, 8888}};
  rp.values.allow_loopback.value = {{5432, 5432}, {8888, 8888}};  // 8888: the session's own wins
  auto plan = compile(rp, ctx_with_git(), full_caps());
  REQUIRE(plan.bind_ports.size() == 1);
  CHECK(plan.bind_ports[0].first == 8888);
  REQUIRE(plan.host_loopback_ports.size() == 1);
  CHECK(plan.host_loopback_ports[0].first == 5432);
  REQUIRE(plan.relay_ports.size() == 1);  // the local-route fallback listens for 5432 only
  CHECK(plan.relay_ports[0].first == 5432);
  auto has_port = [&](uint16_t port) {
    for (const auto& r : plan.connect_ports)
      if (r.first <= port && port <= r.last) return true;
    return false;
  };
  CHECK(has_port(8888));
  CHECK(has_port(5432));
  CHECK(has_port(53));
  CHECK_FALSE(has_port(443));
  // Under warn there are no Landlock port rules, but the namespace still keeps the
  // session's own loopback.
  rp.values.net_enforcement.value = policy::Enforcement::warn;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!plan.restrict_net);
  CHECK(plan.bind_ports.size() == 1);
  // An open network: nothing to compile.
  rp.values.block_all_others.value = false;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!plan.net_relay);
  CHECK(plan.bind_ports.empty());
}

TEST_CASE("compile: network") {
  auto rp = ci_profile();
  rp.values.block_all_others.value = true;
  rp.values.allow_hosts.value = {"deb.debian.org"};
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(plan.restrict_net);
  CHECK(plan.net_relay);
  REQUIRE(plan.connect_ports.size() == 3);  // and 53: DNS over TCP to the relay
  CHECK(plan.connect_ports[0].first == 80);
  CHECK(plan.connect_ports[1].first == 443);
  CHECK(plan.connect_ports[2].first == 53);
  REQUIRE(plan.relay_ports.size() == 2);

  rp.values.allow_ports.value = {{8000, 8080}};
  plan = compile(rp, ctx_with_git(), full_caps());
  REQUIRE(plan.connect_ports.size() == 2);
  CHECK(plan.connect_ports[0].first == 8000);
  CHECK(plan.connect_ports[0].last == 8080);

  auto old = full_caps();
  old.landlock_abi = 3;
  plan = compile(rp, ctx_with_git(), old);
  CHECK(has_text(plan.unenforced, "Landlock ABI 4"));

  rp.values.net_enforcement.value = policy::Enforcement::warn;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!plan.restrict_net);
  CHECK(plan.net_relay);  // warn relays what it would refuse, and records it
  CHECK(has_text(plan.unenforced, "enforcement = warn"));

  rp.values.block_all_others.value = false;
  rp.values.net_enforcement.value = policy::Enforcement::enforce;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(!plan.restrict_net);
  CHECK(!plan.net_relay);  // no namespace: the network is open
  CHECK(plan.connect_ports.empty());
}

TEST_CASE("compile: environment lists are carried for review; LD_PRELOAD not denied is a warning") {
  auto rp = ci_profile();
  rp.values.env_force.value = {"CI=true"};
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(plan.env_deny == std::vector<std::string>{"LD_PRELOAD", "LD_LIBRARY_PATH"});
  CHECK(plan.env_force == std::vector<std::string>{"CI=true"});
  CHECK(!plan.env_pass_set);
  CHECK(!has_text(plan.warnings, "LD_PRELOAD"));
  rp.values.env_deny.value = {};
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(has_text(plan.warnings, "LD_PRELOAD"));
  rp.values.env_pass.value = {"PATH", "HOME"};
  rp.values.env_pass.set = true;
  plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(plan.env_pass_set);
  CHECK(!has_text(plan.warnings, "LD_PRELOAD"));  // pass excludes it
}

TEST_CASE("compile: what this kernel cannot enforce is listed") {
  auto caps = full_caps();
  caps.landlock_abi = 0;
  caps.landlock_error = "Landlock is disabled at boot";
  caps.seccomp = false;
  caps.cgroup2_writable = false;
  auto plan = compile(ci_profile(), ctx_with_git(), caps);
  CHECK(has_text(plan.unenforced, "Landlock is disabled at boot"));
  CHECK(has_text(plan.unenforced, "seccomp"));
  CHECK(has_text(plan.unenforced, "setsid"));
  caps = full_caps();
  caps.landlock_abi = 5;
  plan = compile(ci_profile(), ctx_with_git(), caps);
  CHECK(has_text(plan.unenforced, "Landlock ABI 6"));
}

TEST_CASE("compile: spawn_denylist with spawn_any=true is policy-layer only") {
  auto rp = open_profile();
  rp.values.spawn_denylist.value = {"sudo"};
  rp.values.max_open_files.value = 10;
  SessionContext ctx;
  auto plan = compile(rp, ctx, full_caps());
  CHECK(has_text(plan.unenforced, "spawn_denylist"));
}

TEST_CASE("compile: filesystem enforcement = warn is carried to prepare()") {
  auto rp = ci_profile();
  rp.values.fs_enforcement.value = policy::Enforcement::warn;
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(plan.fs_enforcement == Enforcement::warn);
}

// The question `profile test` shares with prepare(): asked of plain data, so each
// kernel gap can be posed here, on a machine that has none.
TEST_CASE("check_plan: refuses under enforce what prepare() would, allows under warn") {
  auto rp = ci_profile();
  auto plan = compile(rp, ctx_with_git(), full_caps());
  CHECK(check_plan(plan, full_caps()));
  auto open_plan = compile(open_profile(), ctx_with_git(), full_caps());
  REQUIRE(open_plan.empty());
  CHECK(check_plan(open_plan, Capabilities{}));  // nothing to enforce, nothing missing matters
  auto refused = [](const lash::Result<void>& r, const std::string& text) {
    return !r && r.error().message().find(text) != std::string::npos;
  };
  // A plan refusal.
  auto with_refusal = plan;
  with_refusal.fs_refusals = {"cannot tell where /x/.lash is"};
  CHECK(refused(check_plan(with_refusal, full_caps()), "cannot tell where /x/.lash is"));
  // No Landlock at all; then a Landlock too old for truncate (ABI 3).
  Capabilities none = full_caps();
  none.landlock_abi = 0;
  none.landlock_error = "landlock is not in the LSM list";
  CHECK(refused(check_plan(plan, none), "the kernel has no Landlock: landlock is not in the LSM list"));
  Capabilities old = full_caps();
  old.landlock_abi = 2;
  CHECK(refused(check_plan(plan, old), "needs Landlock ABI 3, this kernel has ABI 2"));
  // Network port rules need ABI 4; under network enforcement = enforce they are
  // refused even when the filesystem is only warned about.
  auto net = plan;
  net.restrict_net = true;
  Capabilities abi3 = full_caps();
  abi3.landlock_abi = 3;
  CHECK(refused(check_plan(net, abi3), "the TCP port rules of [network] needs Landlock ABI 4"));
  // protect and noexec need the session namespace: a user other than root makes it in
  // a user namespace. Root does not need one.
  auto ns = plan;
  ns.noexec = {"/home/u/proj"};
  Capabilities no_userns = full_caps();
  no_userns.user_namespaces = false;
  CHECK(refused(check_plan(ns, no_userns), "needs a user namespace, which this kernel refuses"));
  auto bare = plan;  // the read-only root alone: made where it can be, else said
  bare.protect.clear();
  bare.noexec.clear();
  CHECK(check_plan(bare, no_userns));
  // Neither the session's pid namespace (no user namespaces) nor a writable cgroup:
  // the session's processes could outlive it (issue 18). With either it runs.
  Capabilities no_fence = no_userns;
  no_fence.cgroup2_writable = false;
  no_fence.cgroup2_controllers.clear();
  CHECK(refused(check_plan(bare, no_fence), "no pid namespace for the session"));
  CHECK(check_plan(bare, no_userns));  // the cgroup remains
  no_fence.user_namespaces = true;
  CHECK(check_plan(bare, no_fence));  // the pid namespace remains
  no_fence.user_namespaces = false;
  no_fence.root = true;
  CHECK(check_plan(bare, no_fence));  // root makes pid namespaces without user namespaces
  no_fence.root = false;
  no_userns.root = true;
  CHECK(check_plan(ns, no_userns));
  no_userns.root = false;
  // enforcement = warn: each of them runs (prepare() says so in a note), except the
  // network rules, whose own enforcement is still `enforce`.
  rp.values.fs_enforcement.value = policy::Enforcement::warn;
  auto warn = compile(rp, ctx_with_git(), full_caps());
  warn.fs_refusals = with_refusal.fs_refusals;
  warn.noexec = ns.noexec;
  CHECK(check_plan(warn, full_caps()));
  CHECK(check_plan(warn, none));
  CHECK(check_plan(warn, old));
  CHECK(check_plan(warn, no_userns));
  CHECK(check_plan(warn, no_fence));  // warn: runs, said once by prepare()
  auto warn_fs_enforce_net = warn;
  warn_fs_enforce_net.restrict_net = true;
  CHECK(refused(check_plan(warn_fs_enforce_net, abi3), "needs Landlock ABI 4"));
  CHECK(refused(check_plan(warn_fs_enforce_net, none), "the kernel has no Landlock"));
}

TEST_CASE("compile: closure problems are reported") {
  auto ctx = ctx_with_git();
  ctx.closure.problems = {"libgone.so.1 (needed by /usr/bin/git): not found"};
  auto plan = compile(ci_profile(), ctx, full_caps());
  CHECK(has_text(plan.warnings, "libgone.so.1"));
}

TEST_CASE("compile is pure: the plan follows the inputs, not their order or earlier calls") {
  // The same facts listed in another order give the same plan; a compile() in between
  // with other inputs leaves nothing behind; and a changed input shows in the plan (so
  // the comparison is not of two values that cannot differ).
  auto a = plan_lines(compile(ci_profile(), ctx_with_git(), full_caps()));
  auto reordered = ctx_with_git();
  std::reverse(reordered.closure.files.begin(), reordered.closure.files.end());
  auto other = compile(ci_profile(), ctx_with_git("/srv/elsewhere"), full_caps());
  auto b = plan_lines(compile(ci_profile(), reordered, full_caps()));
  // (the rules are listed in the closure's order: compare them as a set)
  auto sorted = [](std::vector<std::string> v) { std::sort(v.begin(), v.end()); return v; };
  CHECK(sorted(a) == sorted(b));
  auto c = plan_lines(other);
  CHECK(a != c);
  CHECK(has_text(c, "rw- /srv/elsewhere  [include_workdir]"));
  CHECK_FALSE(has_text(c, "/home/u/proj  [include_workdir]"));
  CHECK(has_text(a, "r-x /usr/bin/git  [spawn_allowlist]"));
  CHECK(has_text(a, "rw- /home/u/proj  [include_workdir]"));
  CHECK(has_text(a, "programs: allowlist only"));
  auto open = ci_profile();
  open.values.spawn_any.value = true;
  CHECK_FALSE(has_text(plan_lines(compile(open, ctx_with_git(), full_caps())), "programs: allowlist only"));
}

TEST_CASE("landlock masks: file rules get file rights only; older ABIs drop rights") {
  using namespace lash::sandbox::ll;
  uint64_t dir_rw = landlock_fs_access(R | W, 7, false);
  CHECK((dir_rw & fs_read_dir) != 0);
  CHECK((dir_rw & fs_make_reg) != 0);
  CHECK((dir_rw & fs_refer) != 0);
  CHECK((dir_rw & fs_truncate) != 0);
  CHECK((dir_rw & fs_execute) == 0);
  CHECK((dir_rw & (fs_make_char | fs_make_block)) == 0);  // never device nodes
  uint64_t file_rx = landlock_fs_access(R | X, 7, true);
  CHECK(file_rx == (fs_read_file | fs_execute));
  CHECK((landlock_fs_access(R | W, 2, false) & fs_truncate) == 0);
  CHECK((landlock_fs_access(R | W, 1, false) & fs_refer) == 0);
  CHECK((landlock_fs_access(R | W | D, 4, true) & fs_ioctl_dev) == 0);
  CHECK((landlock_fs_access(R | W | D, 5, true) & fs_ioctl_dev) != 0);
  CHECK(landlock_handled_fs(1) == fs_abi1);
}

TEST_CASE("landlock rules: exec closure paths below a directory grant with their rights are skipped") {
  namespace r = rights;
  auto rule = [](std::string path, unsigned rights, std::string origin, bool file = false) {
    PathRule p;
    p.path = std::move(path);
    p.rights = rights;
    p.origin = std::move(origin);
    p.file = file;
    return p;
  };
  std::vector<PathRule> paths = {
      rule("/usr/lib/x86_64-linux-gnu", r::read, "read_only"),
      rule("/usr/lib/x86_64-linux-gnu/libc.so.6", r::read, "library", true),          // 1: covered
      rule("/usr/lib/x86_64-linux-gnu/ld-linux.so.2", r::read | r::execute, "interpreter", true),  // 2: needs x
      rule("/usr/lib/x86_64-linux-gnu/perl", r::read, "runtime"),                      // 3: covered
      rule("/usr/lib/x86_64-linux-gnudir/libz.so", r::read, "library", true),          // 4: not an ancestor
      rule("/usr/lib/x86_64-linux-gnu/sub/x.so", r::read, "read_only"),               // 5: a profile grant stays
      rule("/opt/a", r::execute, "sandbox"),
      rule("/opt/a/b", r::read, "read_only"),
      rule("/opt/a/b/c/prog", r::read | r::execute, "spawn_allowlist", true),          // 8: rights of two ancestors
      rule("/proc", r::read, "baseline"),
      rule("/proc/self/exe", r::read, "library", true),                                // 10: /proc is another inode
  };
  std::vector<OpenedPath> opened = {{"/proc", 3}};
  std::vector<bool> c = rules_covered_by_ancestors(paths, opened);
  REQUIRE(c.size() == paths.size());
  CHECK(!c[0]);
  CHECK(c[1]);
  CHECK(!c[2]);
  CHECK(c[3]);
  CHECK(!c[4]);
  CHECK(!c[5]);
  CHECK(!c[6]);
  CHECK(!c[7]);
  CHECK(c[8]);
  CHECK(!c[9]);
  CHECK(!c[10]);
  // Without the private /proc, the host /proc's rule covers it.
  CHECK(rules_covered_by_ancestors(paths)[10]);

  std::vector<PathRule> root = {
      rule("/", r::read, "read_only"),
      rule("/srv/lib.so", r::read, "library", true),                     // covered by /
      rule("/srv/prog", r::read | r::execute, "spawn_allowlist", true),  // / gives no x
      rule("/", r::execute, "sandbox"),                                  // the same path twice adds up
      rule("/srv/other", r::read | r::execute, "interpreter", true),
  };
  std::vector<bool> rc = rules_covered_by_ancestors(root);
  CHECK(!rc[0]);
  CHECK(rc[1]);
  CHECK(rc[2]);
  CHECK(!rc[3]);
  CHECK(rc[4]);
  root.pop_back();
  root.pop_back();
  CHECK(!rules_covered_by_ancestors(root)[2]);
}
