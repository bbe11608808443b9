// The files of tests/data/profiles, read through the real search path.
#include <doctest/doctest.h>

#include <algorithm>

#include "policy/resolver.h"
#include "policy/store.h"

using namespace lash::policy;

namespace {
const std::string kDir = std::string(LASH_TEST_DATA) + "/profiles";
lash::Result<std::shared_ptr<const ResolvedProfile>> load(const char* name) {
  SearchPath store(kDir, "");
  return load_resolved(store, name);
}
}  // namespace

TEST_CASE("data profiles: good.profile loads with provenance") {
  auto p = load("good");
  REQUIRE_MESSAGE(p, p.error().message());
  const Profile& v = (*p)->values;
  CHECK(v.spawn_allowlist.value == List{"ls", "cat", "/usr/bin/env", "grep"});
  CHECK(v.spawn_allowlist.from.text() == kDir + "/good.profile:10");
  CHECK(v.fs_enforcement.value == Enforcement::warn);
  CHECK(v.max_memory.value == 512ull << 20);
  CHECK(v.plugin_allowlist.value == List{"git"});
  CHECK(v.job_control_own.value);
  CHECK(v.audit_access.value);  // inherited from the built-in default
  CHECK(v.audit_access.from.text().find("builtin:default.profile:") == 0);
  CHECK((*p)->chain_text() == "good -> default");
}

TEST_CASE("data profiles: broken.profile lists every error") {
  auto p = load("broken");
  REQUIRE_FALSE(p);
  const std::string f = kDir + "/broken.profile";
  CHECK(p.error().what ==
        f + ":2: spawn_any: expected true/false, yes/no, on/off or 1/0, got 'perhaps'\n" +
        f + ":3: spawn_allowlist: expected a bare command name, an absolute path, ~/path or ./path, got '../bin/evil'\n" +
        f + ":6: allow_hosts: invalid host pattern 'not a host': character ' ' is not allowed "
            "(use a host name, *.domain, an IP address or a CIDR range)\n" +
        f + ":7: allow_ports: expected a port 1-65535 or a range LOW-HIGH, got '70000'\n" +
        f + ":10: max_memory: expected a size in bytes with optional K, M, G or T, got 'lots'");
}

TEST_CASE("data profiles: cyclic, over-long-line and unknown-key") {
  auto c = load("cyclic-a");
  REQUIRE_FALSE(c);
  CHECK(c.error().what == kDir + "/cyclic-b.profile:5: from: inheritance cycle: cyclic-a -> cyclic-b -> cyclic-a");
  auto l = load("over-long-line");
  REQUIRE_FALSE(l);
  CHECK(l.error().what.find(kDir + "/over-long-line.profile:2: line is ") == 0);
  auto u = load("unknown-key");
  REQUIRE_FALSE(u);
  CHECK(u.error().what == kDir + "/unknown-key.profile:3: spawn_alowlist: unknown key in [process]; "
                                 "did you mean 'spawn_allowlist'?");
}

TEST_CASE("data profiles: names lists valid file names only") {
  SearchPath store(kDir, "");
  auto names = store.names(Source::user);
  CHECK(std::find(names.begin(), names.end(), std::string("good")) != names.end());
  CHECK(std::find(names.begin(), names.end(), std::string("cyclic-a")) != names.end());
}
