// src/exec/policy_gate.cpp, directly: check() is the one place shell actions meet the
// engine (the real run and `profile test` both use it), so it must pass the engine's
// verdict through unchanged, and never let a dynamic action count as allowed;
// resolve_target_path() is what a redirect is judged by, so a symlinked directory
// must not hide where the write goes; the refusals made without the engine (sandbox,
// audit log) are denials.
#include <doctest/doctest.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "exec/policy_gate.h"
#include "policy/engine.h"
#include "policy/resolver.h"
#include "policy/store.h"

using namespace lash;

namespace {
policy::Engine engine_of(const std::string& name) {
  policy::MemoryStore s;
  auto p = policy::load_resolved(s, name, policy::ResolveOptions{false, true});
  REQUIRE(p);
  return policy::Engine(*p, policy::SessionFacts{});
}
std::string realdir(const std::string& p) {
  char buf[PATH_MAX];
  REQUIRE(realpath(p.c_str(), buf) != nullptr);
  return buf;
}
}  // namespace

TEST_CASE("policy gate: check() passes each engine verdict through, in order") {
  auto restricted = engine_of("restricted");
  auto open = engine_of("default");
  std::vector<exec::PlannedAction> acts = {
      {policy::Spawn{"curl", "/usr/bin/curl"}},
      {policy::Redirect{"/home/u/x", policy::RedirectMode::write}},
      {policy::Spawn{"ls", "/usr/bin/ls"}},
  };
  auto r = exec::check(acts, restricted);
  REQUIRE(r.size() == 3);
  CHECK(r[0].decision.verdict == policy::Verdict::deny);
  CHECK(r[0].decision.decided_by.key == "process.spawn_allowlist");
  CHECK(r[1].decision.verdict == policy::Verdict::deny);
  CHECK(r[1].decision.decided_by.key == "capabilities.file_redirect");
  CHECK(std::holds_alternative<policy::Spawn>(r[2].planned.action));
  // each verdict is the engine's own for that action
  for (const auto& c : r) CHECK(c.decision.verdict == restricted.decide(c.planned.action).verdict);
  // the same actions under default: allowed (the twin)
  for (const auto& c : exec::check(acts, open)) CHECK(c.decision.allowed());
}

TEST_CASE("policy gate: a dynamic or run-time action is never reported allowed by check()") {
  auto open = engine_of("default");
  exec::PlannedAction dyn{policy::Spawn{"ls", "/usr/bin/ls"}};
  dyn.dynamic = true;
  exec::PlannedAction later{policy::Spawn{"ls", "/usr/bin/ls"}};
  later.at_run_time = true;
  auto r = exec::check({dyn, later}, open);
  REQUIRE(r.size() == 2);
  CHECK(r[0].decision.verdict == policy::Verdict::dynamic);
  CHECK(r[1].decision.verdict == policy::Verdict::dynamic);
  CHECK_FALSE(r[0].decision.allowed());
  CHECK_FALSE(r[1].decision.allowed());
}

TEST_CASE("policy gate: refusals made without the engine are denials that say why") {
  auto s = exec::sandbox_refusal_decision("ci", "run 'sh'", "the kernel has no Landlock");
  CHECK(s.verdict == policy::Verdict::deny);
  CHECK_FALSE(s.allowed());
  CHECK(s.suggestion.find("the kernel has no Landlock") != std::string::npos);
  auto a = exec::audit_failure_decision("ci", "open 'out.txt'", "disk full");
  CHECK(a.verdict == policy::Verdict::deny);
  CHECK_FALSE(a.allowed());
  CHECK((a.problem + a.suggestion).find("disk full") != std::string::npos);
}

TEST_CASE("policy gate: a redirect target is judged by where the write really goes") {
  char tmpl[] = "/tmp/lash-gate-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string base = realdir(tmpl);
  std::string real = base + "/real", link = base + "/link";
  REQUIRE(mkdir(real.c_str(), 0755) == 0);
  REQUIRE(symlink(real.c_str(), link.c_str()) == 0);
  // a file that does not exist yet, through a symlinked directory
  CHECK(exec::resolve_target_path(link + "/new.txt") == real + "/new.txt");
  CHECK(exec::resolve_target_path(base + "/real/../real/x") == real + "/x");
  // relative to the working directory
  char cwd[PATH_MAX];
  REQUIRE(getcwd(cwd, sizeof cwd) != nullptr);
  REQUIRE(chdir(link.c_str()) == 0);
  CHECK(exec::resolve_target_path("rel.txt") == real + "/rel.txt");
  REQUIRE(chdir(cwd) == 0);
  unlink(link.c_str());
  rmdir(real.c_str());
  rmdir(base.c_str());
}
