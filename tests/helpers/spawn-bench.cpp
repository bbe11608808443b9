// spawn-bench N: the per-spawn cost of the sandbox. Launches /bin/true N times with
// an empty Prepared (plain fork/exec, the `default` profile) and N times under a
// ci-like plan (allowlist of /bin/true, workdir writable, limits, seccomp, cgroup),
// and prints microseconds per spawn for each and the difference. Also times the
// once-per-session prepare(). Figures for ./dev bench; not a pass/fail test.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "policy/profile_model.h"
#include "sandbox/compile.h"
#include "sandbox/launch.h"
#include "sandbox/prepare.h"

using namespace lash::sandbox;
using Clock = std::chrono::steady_clock;

namespace {

// IDLE_MS > 0 sleeps between spawns (not timed): a script that runs a command now
// and then. A per-spawn cgroup migration would pay an RCU grace period each time.
double per_spawn_us(const Prepared& p, int n, int idle_ms = 0) {
  SpawnSpec s;
  s.path = "/bin/true";
  s.argv = {"true"};
  Clock::duration total{};
  for (int i = 0; i < n; ++i) {
    if (idle_ms > 0) usleep(static_cast<useconds_t>(idle_ms) * 1000);
    auto t0 = Clock::now();
    auto r = launch(p, s);
    if (!r || r->failure.step != ChildStep::none) {
      std::fprintf(stderr, "spawn-bench: launch failed\n");
      std::exit(1);
    }
    int ws;
    waitpid(r->pid, &ws, 0);
    total += Clock::now() - t0;
  }
  return std::chrono::duration<double, std::micro>(total).count() / n;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return 1;
  auto t0 = Clock::now();
  Capabilities caps = probe_capabilities();
  lash::policy::ResolvedProfile rp;
  rp.values.spawn_any.value = false;
  rp.values.include_workdir.value = true;
  rp.values.max_processes.value = 512;
  rp.values.max_open_files.value = 4096;
  rp.values.env_deny.value = {"LD_PRELOAD"};
  rp.values.protect.value = {};
  SessionContext ctx;
  ctx.env.start_dir = cwd;
  ctx.facts.writable_roots = {{cwd, "filesystem.include_workdir"}};
  ctx.facts.allow_real = {"/usr/bin/true"};
  ctx.closure = resolve_exec_closure({"/usr/bin/true"});
  SandboxPlan plan = compile(rp, ctx, caps);
  auto prep = prepare(plan, caps);
  double setup_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!prep) {
    std::fprintf(stderr, "spawn-bench: prepare failed: %s\n", prep.error().message().c_str());
    return 1;
  }
  Prepared none;
  per_spawn_us(none, 20);  // warm up
  double plain = per_spawn_us(none, n);
  double boxed = per_spawn_us(*prep, n);
  std::printf("session setup (probe+compile+prepare): %.2f ms\n", setup_ms);
  std::printf("plain spawn: %.1f us, sandboxed spawn: %.1f us, added: %.1f us per spawn (n=%d)\n", plain, boxed,
              boxed - plain, n);
  double plain_idle = per_spawn_us(none, 20, 50);
  double boxed_idle = per_spawn_us(*prep, 20, 50);
  std::printf("after 50 ms idle: plain %.1f us, sandboxed %.1f us, added: %.1f us per spawn (n=20)\n", plain_idle,
              boxed_idle, boxed_idle - plain_idle);
  kill_all(*prep);
  return 0;
}
