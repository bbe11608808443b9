// sandbox-review NAME [-- PROGRAM ARG...]: resolve a shipped profile, compile it for
// this machine and the current directory, and print the plan with its warnings and
// what this kernel cannot enforce (what `profile review` will show). With a program,
// prepare the sandbox and run it under it instead (PROGRAM is looked up in PATH), and
// exit with its status. A development aid for checking the shipped profiles against
// enforcement.md; exit 1 when the profile cannot load.
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "policy/resolver.h"
#include "policy/store.h"
#include "sandbox/compile.h"
#include "sandbox/prepare.h"
#include "sandbox/session_sandbox.h"

using namespace lash;

int main(int argc, char** argv) {
  bool run = argc > 3 && std::string(argv[2]) == "--";
  if (argc != 2 && !run) {
    std::fprintf(stderr, "usage: sandbox-review PROFILE [-- PROGRAM ARG...]\n");
    return 2;
  }
  policy::SearchPath store("/nonexistent-user-dir", "/nonexistent-system-dir");
  policy::ResolveOptions opts;
  opts.builtin_only = true;
  auto rp = policy::load_resolved(store, argv[1], opts);
  if (!rp) {
    std::fprintf(stderr, "sandbox-review: %s\n", rp.error().message().c_str());
    return 1;
  }
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return 1;
  const char* path = std::getenv("PATH");
  const char* home = std::getenv("HOME");
  std::string tmpdir = "/tmp/lash-UID-session";
  if (run && (*rp)->values.tmpdir.value == policy::Tmpdir::session) {
    auto t = sandbox::make_session_tmpdir();
    if (!t) return 1;
    tmpdir = *t;
  }
  policy::SessionEnv env{path ? path : "/usr/bin:/bin", cwd, home ? home : "/", tmpdir};
  auto caps = sandbox::probe_capabilities();
  auto ctx = sandbox::make_session_context(**rp, env);
  auto plan = sandbox::compile(**rp, ctx, caps);
  if (run) {
    sandbox::SessionSandbox sb;
    sb.set_capabilities(caps);
    if (auto r = sb.prepare(plan); !r) {
      std::fprintf(stderr, "sandbox-review: prepare: %s\n", r.error().message().c_str());
      return 1;
    }
    auto real = policy::resolve_on_path(argv[3], env.path_var, policy::FsProbe::system());
    sandbox::SpawnSpec spec;
    spec.path = real ? *real : argv[3];
    for (int i = 3; i < argc; ++i) spec.argv.push_back(argv[i]);
    spec.envp = {"PATH=" + env.path_var, "HOME=" + env.home, "TMPDIR=" + tmpdir};
    auto lr = sb.launch(spec);
    int status = 1;
    if (!lr) {
      std::fprintf(stderr, "sandbox-review: %s\n", lr.error().message().c_str());
    } else if (lr->failure.step != sandbox::ChildStep::none) {
      std::fprintf(stderr, "sandbox-review: %s failed: %s\n", sandbox::step_name(lr->failure.step),
                   std::strerror(lr->failure.err));
      waitpid(lr->pid, nullptr, 0);
      status = 126;
    } else {
      int ws = 0;
      waitpid(lr->pid, &ws, 0);
      status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    }
    for (const auto& n : sb.take_notes()) std::fprintf(stderr, "note: %s\n", n.c_str());
    sb.kill_all();
    return status;
  }
  for (const auto& l : sandbox::describe(caps)) std::printf("kernel: %s\n", l.c_str());
  for (const auto& l : sandbox::plan_lines(plan)) std::printf("%s\n", l.c_str());
  return 0;
}
