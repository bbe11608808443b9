// The actions the relay and `profile test --net` build (net/flow_rules.h), decided by
// the engine: the dry run's steps are the relay's rules, not a second copy of them.
#include "net/flow_rules.h"

#include <doctest/doctest.h>

#include "policy/dns_question.h"
#include "policy/engine.h"
#include "policy/resolver.h"
#include "policy/store.h"

namespace lash::net {
namespace {

policy::Engine engine_for(const std::string& text) {
  policy::MemoryStore store;
  store.set(policy::Source::user, "t", "[profile]\ndescription = t\n" + text);
  auto r = policy::load_resolved(store, "t");
  REQUIRE(r);
  return policy::Engine(*r);
}

std::vector<DryFlowStep> steps(const policy::Engine& e, const std::string& target) {
  auto s = dry_flow_steps(target, e.profile().values);
  REQUIRE(s);
  return *s;
}

TEST_CASE("dry run: a name is a DNS question, then the flow claiming that name") {
  auto e = engine_for("[network]\nallow_hosts = a.test, 10.0.0.0/8\nallow_ports = 443, 7000\n");
  auto s = steps(e, "A.Test.:443");
  REQUIRE(s.size() == 2);
  CHECK(s[0].action.host == "a.test");
  CHECK(e.decide(s[0].action).allowed());
  CHECK(s[1].action.sni == "a.test");  // SNI on 443
  CHECK(e.decide(s[1].action).allowed());
  auto other = steps(e, "a.test:7000");
  CHECK(other[1].action.sni.empty());  // nothing claimed on other ports
  CHECK(e.decide(other[1].action).allowed());
  auto port = e.decide(steps(e, "a.test:22")[1].action);
  CHECK(port.decided_by.key == "network.allow_ports");
  CHECK_FALSE(e.decide(steps(e, "b.test:443")[0].action).allowed());  // NXDOMAIN
  CHECK_FALSE(e.decide(steps(e, "dns:evila.test")[0].action).allowed());
}

TEST_CASE("dry run: a DNS question shows the name alone, and is said as resolving it") {
  auto e = engine_for("[network]\nallow_hosts = a.test\nallow_loopback = 18001\n");
  auto q = steps(e, "localhost:18001")[0].action;
  CHECK(policy::is_dns_question(q));
  CHECK(policy::kind_name(policy::Action{q}) == "dns");
  CHECK(policy::target_of(policy::Action{q}) == "localhost");
  auto d = e.decide(q);
  CHECK_FALSE(d.allowed());
  CHECK(d.problem.find("cannot resolve 'localhost'") != std::string::npos);
  CHECK(d.problem.find("443") == std::string::npos);
  CHECK(e.decide(steps(e, "dns:a.test")[0].action).allowed());
}

TEST_CASE("dry run: this host's loopback is 127.0.0.1 and ::1 only, 0.0.0.0 and :: being those") {
  auto e = engine_for("[network]\nallow_loopback = 18001\n");
  for (const char* t : {"127.0.0.1:18001", "[::1]:18001", "[::ffff:127.0.0.1]:18001", "0.0.0.0:18001", "[::]:18001"})
    CHECK_MESSAGE(e.decide(steps(e, t)[0].action).allowed(), t);
  for (const char* t : {"127.0.0.2:18001", "127.1.2.3:18001", "[::ffff:127.0.0.2]:18001", "127.0.0.1:18002"}) {
    auto d = e.decide(steps(e, t)[0].action);
    CHECK_MESSAGE(!d.allowed(), t);
    CHECK(d.decided_by.key == "network.allow_loopback");
  }
}

TEST_CASE("dry run: an IP literal has no name: only an IP rule allows it") {
  auto e = engine_for("[network]\nallow_hosts = a.test, 10.0.0.0/8\n");
  auto lit = steps(e, "93.184.216.34:443");
  REQUIRE(lit.size() == 1);
  CHECK_FALSE(e.decide(lit[0].action).allowed());
  CHECK(e.decide(steps(e, "10.1.2.3:443")[0].action).allowed());
  CHECK(e.decide(steps(e, "10.1.2.3:80")[0].action).allowed());
  CHECK_FALSE(e.decide(steps(e, "[2001:db8::1]:443")[0].action).allowed());
  // The relay's own action for the same flows, built the same way.
  CHECK(lit[0].action.host == unchecked_flow("93.184.216.34", 443).host);
}

TEST_CASE("dry run: UDP never leaves a relayed session; open profiles let it") {
  auto e = engine_for("[network]\nallow_hosts = a.test\n");
  auto u = steps(e, "udp:a.test:443");
  REQUIRE(u.size() == 1);
  CHECK(u[0].action.udp);
  auto d = e.decide(u[0].action);
  CHECK(d.verdict == policy::Verdict::deny);
  CHECK(d.decided_by.key == "network.block_all_others");
  auto warn = engine_for("[network]\nallow_hosts = a.test\nenforcement = warn\n");
  CHECK_FALSE(warn.decide(u[0].action).advisory);  // dropped by the namespace, warn or not
  auto open = engine_for("[network]\nblock_all_others = false\nallow_hosts = a.test\n");
  CHECK(open.decide(steps(open, "udp:b.test:9999")[0].action).allowed());
}

TEST_CASE("dry run: malformed targets are errors, not guesses") {
  auto e = engine_for("");
  for (const char* bad : {"", "a.test", "a.test:", "a.test:0", "a.test:65536", "a.test:8x", "::1:443",
                          "[::1]443", "udp:a.test:53", "dns:", "dns:a..b", "bad name:80", "a.test:-1"})
    CHECK_FALSE(dry_flow_steps(bad, e.profile().values));
}

}  // namespace
}  // namespace lash::net
