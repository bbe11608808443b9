// The four shipped profiles load, resolve, validate and do what their descriptions say.
#include <doctest/doctest.h>

#include "policy/builtin_profiles.h"
#include "policy/engine.h"
#include "policy/resolver.h"

using namespace lash::policy;

namespace {
std::shared_ptr<const ResolvedProfile> builtin(const char* name) {
  MemoryStore s;
  auto r = load_resolved(s, name, ResolveOptions{false, true});
  REQUIRE_MESSAGE(r, r.error().message());
  return *r;
}
}  // namespace

TEST_CASE("shipped profiles: all five are embedded and valid") {
  std::vector<std::string> names;
  for (const auto& b : builtin_profiles()) names.emplace_back(b.name);
  CHECK(names == std::vector<std::string>{"ci", "ci-strict", "default", "restricted", "script"});
  for (const auto& b : builtin_profiles()) {
    auto p = builtin(std::string(b.name).c_str());
    CHECK_FALSE(p->values.description.value.empty());
    CHECK(p->chain[0].path == "builtin:" + std::string(b.name) + ".profile");
  }
}

TEST_CASE("shipped profiles: default grants full access") {
  auto p = builtin("default");
  const Profile& v = p->values;
  CHECK(v.spawn_any.value);
  CHECK(filesystem_unrestricted(v));
  CHECK_FALSE(v.block_all_others.value);
  CHECK(v.allow_hosts.value.empty());
  CHECK(v.env_mutation.value);
  for (auto* f : {&v.file_redirect, &v.plugin_access, &v.config_modify, &v.session_manage,
                  &v.job_control_own, &v.job_control_others, &v.audit_access,
                  &v.profile_manage, &v.profile_switch})
    CHECK(f->value);
}

TEST_CASE("shipped profiles: script is default minus plugins, jobs and admin") {
  auto p = builtin("script");
  const Profile& v = p->values;
  CHECK(p->chain_text() == "script -> default");
  CHECK(v.spawn_any.value);
  CHECK(v.file_redirect.value);
  CHECK(v.env_mutation.value);
  for (auto* f : {&v.plugin_access, &v.config_modify, &v.session_manage, &v.job_control_own,
                  &v.job_control_others, &v.audit_access, &v.profile_manage, &v.profile_switch})
    CHECK_FALSE(f->value);
}

TEST_CASE("shipped profiles: ci is a build sandbox") {
  auto p = builtin("ci");
  const Profile& v = p->values;
  CHECK(p->chain.size() == 1);
  CHECK_FALSE(v.spawn_any.value);
  for (auto tool : {"make", "gcc", "cc", "ninja", "meson", "git", "sh"})
    CHECK(std::find(v.spawn_allowlist.value.begin(), v.spawn_allowlist.value.end(), tool) !=
          v.spawn_allowlist.value.end());
  CHECK(v.include_workdir.value);
  CHECK(v.tmpdir.value == Tmpdir::session);
  CHECK_FALSE(filesystem_unrestricted(v));
  CHECK(v.allow_ports.value == Ports{{80, 80}, {443, 443}});
  CHECK(v.block_all_others.value);
  CHECK(v.max_memory.value > 0);
  CHECK(v.max_processes.value > 0);
  CHECK(v.env_deny.value.size() >= 2);
  CHECK(v.env_force.value == List{"CI=true", "CCACHE_DISABLE=1"});
  CHECK(v.file_redirect.value);
  CHECK_FALSE(v.profile_switch.value);
  Engine e(p, SessionFacts{});
  CHECK(e.decide(NetConnect{"pypi.org", "", 443, "pypi.org"}).allowed());
  CHECK(v.exec_paths.value == List{".", "$TMPDIR"});
  for (auto tool : {"install", "file", "cmake", "ccache", "pkgconf", "xargs", "getconf", "ld.gold"})
    CHECK(std::find(v.spawn_allowlist.value.begin(), v.spawn_allowlist.value.end(), tool) !=
          v.spawn_allowlist.value.end());
  // Compiler internals by pattern, never one architecture's or version's directory.
  for (const auto& e : v.spawn_allowlist.value) CHECK(e.find("x86_64-linux-gnu/12") == std::string::npos);
  CHECK_FALSE(e.decide(NetConnect{"pypi.org", "", 22, ""}).allowed());
  CHECK_FALSE(e.decide(NetConnect{"evil.example", "", 443, "evil.example"}).allowed());
}

TEST_CASE("shipped profiles: ci-strict is ci with nothing writable executable") {
  auto p = builtin("ci-strict");
  CHECK(p->chain_text() == "ci-strict -> ci");
  CHECK(p->values.exec_paths.set);
  CHECK(p->values.exec_paths.value.empty());
  CHECK(p->values.spawn_allowlist.value == builtin("ci")->values.spawn_allowlist.value);
}

TEST_CASE("shipped profiles: restricted is the strictest") {
  auto p = builtin("restricted");
  const Profile& v = p->values;
  CHECK_FALSE(v.spawn_any.value);
  CHECK(v.spawn_allowlist.value.size() < 30);
  for (auto risky : {"sh", "bash", "python3", "perl", "awk", "sed", "find", "env", "xargs", "vi"})
    CHECK(std::find(v.spawn_allowlist.value.begin(), v.spawn_allowlist.value.end(), risky) ==
          v.spawn_allowlist.value.end());
  CHECK_FALSE(v.file_redirect.value);
  CHECK_FALSE(v.env_mutation.value);
  CHECK(v.allow_hosts.value.empty());
  CHECK(v.block_all_others.value);
  CHECK(v.read_write.value.empty());
  CHECK(v.sandbox.value.empty());
  CHECK_FALSE(v.include_workdir.value);
  CHECK(v.read_only.value == List{"."});
  CHECK(v.exec_paths.value.empty());
  for (auto* f : {&v.plugin_access, &v.config_modify, &v.session_manage, &v.job_control_own,
                  &v.job_control_others, &v.audit_access, &v.profile_manage, &v.profile_switch})
    CHECK_FALSE(f->value);
}
