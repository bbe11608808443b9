// Shared by the kernel tests: temp dirs, running lash-probe under a Prepared, and
// building plans through compile() from a hand-made profile.
#pragma once
#include <doctest/doctest.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "policy/profile_model.h"
#include "sandbox/compile.h"
#include "sandbox/launch.h"
#include "sandbox/prepare.h"
#include "sandbox/watchdog.h"
#include "sandbox/broker.h"
#include "sandbox/cgroup.h"
#include "sandbox/session_sandbox.h"

#ifndef LASH_PROBE_PATH
#error "LASH_PROBE_PATH must name the built lash-probe"
#endif

namespace sbtest {

using namespace lash::sandbox;

inline std::string real(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? buf : p;
}

struct TempDir {
  std::string path;
  explicit TempDir(const char* tag = "t") {
    std::string tmpl = std::string("/tmp/lash-sbtest-") + tag + "-XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = real(tmpl);
    chmod(path.c_str(), 0755);
  }
  ~TempDir() { remove_tree(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

inline void write_text(const std::string& p, const std::string& text) {
  std::ofstream(p) << text;
}

inline std::string read_text(const std::string& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string probe_path() { return real(LASH_PROBE_PATH); }

// Run lash-probe ARGS under PREPARED; returns its one-line answer (or "launch:STEP:ERR").
inline std::string run_probe(const Prepared& prepared, std::vector<std::string> args,
                             std::vector<std::string> env = {"PATH=/usr/bin:/bin"}) {
  int p[2];
  REQUIRE(pipe2(p, O_CLOEXEC) == 0);
  SpawnSpec s;
  s.path = probe_path();
  s.argv = {"lash-probe"};
  s.argv.insert(s.argv.end(), args.begin(), args.end());
  s.envp = std::move(env);
  FdOp out;
  out.kind = FdOp::Kind::dup;
  out.fd = 1;
  out.from = p[1];
  s.fd_ops = {out};
  auto r = launch(prepared, s);
  close(p[1]);
  REQUIRE(r.ok());
  std::string text;
  char buf[256];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(p[0]);
  int ws = 0;
  waitpid(r->pid, &ws, 0);
  if (r->failure.step != ChildStep::none)
    return std::string("launch:") + step_name(r->failure.step) + ":" + std::to_string(r->failure.err);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

struct PlanOptions {
  bool spawn_any = false;
  std::vector<std::string> allow;  // extra allowlisted programs (real paths)
  Limits limits;
  std::vector<lash::policy::PortRange> ports;
  bool restrict_net = false;
  std::vector<std::string> read_only;
  std::vector<std::string> protect;
};

// A profile like `ci`: allowlist (lash-probe + extras), WORK writable, baseline on.
inline SandboxPlan make_plan(const std::string& work, const PlanOptions& o, const Capabilities& caps) {
  lash::policy::ResolvedProfile rp;
  rp.name = "test";
  auto& v = rp.values;
  v.spawn_any.value = o.spawn_any;
  v.read_write.value = {work};
  v.read_only.value = o.read_only;
  v.protect.value = o.protect;
  v.block_all_others.value = o.restrict_net;
  v.allow_ports.value = o.ports;
  v.max_memory.value = o.limits.memory;
  v.max_cpu_seconds.value = o.limits.cpu_seconds;
  v.max_file_size.value = o.limits.file_size;
  v.max_processes.value = o.limits.processes;
  v.max_open_files.value = o.limits.open_files;
  v.env_deny.value = {"LD_PRELOAD"};
  SessionContext ctx;
  ctx.env.start_dir = work;
  ctx.env.home = "/root";
  ctx.facts.writable_roots = {{work, "filesystem.read_write"}};
  std::vector<std::string> progs = {probe_path()};
  for (auto& a : o.allow) progs.push_back(real(a));
  for (auto& pr : progs) {
    ctx.facts.allow_real.insert(pr);
    ctx.facts.allow_real_by_name[pr] = pr;
  }
  if (!o.spawn_any) ctx.closure = resolve_exec_closure(progs);
  ctx.etc_entries = list_except("/etc", etc_secrets(), {"ssh", "ssl", "pki"});
  auto plan = compile(rp, ctx, caps);
  // These tests are of the Landlock port wall alone, against listeners in this
  // process's network namespace; the relay's namespace is tests/integration/net's.
  plan.net_relay = false;
  return plan;
}

inline Prepared must_prepare(const SandboxPlan& plan, const Capabilities& caps) {
  auto p = prepare(plan, caps);
  if (!p) FAIL("prepare failed: " << p.error().message());
  return std::move(p.value());
}

}  // namespace sbtest
