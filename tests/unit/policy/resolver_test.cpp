#include "policy/resolver.h"

#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::policy;

TEST_CASE("resolver: only set keys override the parent, root first") {
  MemoryStore s;
  s.set(Source::user, "base1", "[process]\nspawn_any = true\nspawn_denylist = rm\n"
                               "[capabilities]\nfile_redirect = true\n");
  s.set(Source::user, "mid", "[inherit]\nfrom = base1\n[process]\nspawn_denylist = curl, wget\n");
  s.set(Source::user, "leaf", "[inherit]\nfrom = mid\n[capabilities]\nfile_redirect = false\n");
  auto r = load_resolved(s, "leaf");
  REQUIRE(r);
  const ResolvedProfile& p = **r;
  CHECK(p.name == "leaf");
  CHECK(p.chain_text() == "leaf -> mid -> base1");
  CHECK(p.values.spawn_any.value);
  CHECK(p.values.spawn_any.from.text() == "user:base1.profile:2");
  CHECK(p.values.spawn_any.from.profile == "base1");
  // a set list replaces the parent's list entirely
  CHECK(p.values.spawn_denylist.value == List{"curl", "wget"});
  CHECK(p.values.spawn_denylist.from.profile == "mid");
  CHECK_FALSE(p.values.file_redirect.value);
  CHECK(p.values.file_redirect.from.text() == "user:leaf.profile:4");
  // unset everywhere: base
  CHECK(p.values.plugin_access.from.is_base());
  CHECK(p.values.block_all_others.value);
  CHECK(p.values.protect.value == List{".git/hooks", ".git/config"});
}

TEST_CASE("resolver: a profile with nothing set allows nothing") {
  auto p = test::resolved("[profile]\ndescription = empty\n");
  const Profile& v = p->values;
  CHECK_FALSE(v.spawn_any.value);
  CHECK(v.spawn_allowlist.value.empty());
  CHECK_FALSE(v.file_redirect.value);
  CHECK_FALSE(v.env_mutation.value);
  CHECK(v.block_all_others.value);
  CHECK_FALSE(v.profile_switch.value);
}

TEST_CASE("resolver: cycles name the chain at the closing `from` line") {
  MemoryStore s;
  s.set(Source::user, "ci", "[inherit]\nfrom = team\n");
  s.set(Source::user, "team", "[profile]\ndescription = x\n[inherit]\nfrom = ci\n");
  auto r = load_resolved(s, "ci");
  REQUIRE_FALSE(r);
  CHECK(r.error().what == "user:team.profile:4: from: inheritance cycle: ci -> team -> ci");
  s.set(Source::user, "self", "[inherit]\nfrom = self\n");
  auto r2 = load_resolved(s, "self");
  REQUIRE_FALSE(r2);
  CHECK(r2.error().what.find("user:self.profile:2: from: inheritance cycle: self -> self (") == 0);
  // the same name one source lower is another file: the user's `default` extends the
  // built-in one
  s.set(Source::user, "default", "[inherit]\nfrom = default\n[profile]\ndescription = mine\n");
  auto r3 = load_resolved(s, "default");
  REQUIRE(r3);
  CHECK((*r3)->chain.size() == 2);
  CHECK((*r3)->chain[1].source == Source::builtin);
  CHECK((*r3)->values.description.value == "mine");
}

TEST_CASE("resolver: a missing parent names the chain") {
  MemoryStore s;
  s.set(Source::user, "a", "[inherit]\nfrom = b\n");
  s.set(Source::user, "b", "[inherit]\nfrom = nothere\n");
  auto r = load_resolved(s, "a");
  REQUIRE_FALSE(r);
  CHECK(r.error().what ==
        "user:b.profile:2: from: profile 'nothere' not found (inheritance a -> b -> nothere)");
}

TEST_CASE("resolver: 16 levels of inheritance are fine, 17 are not") {
  MemoryStore s;
  for (int i = 0; i < 17; ++i)
    s.set(Source::user, "p" + std::to_string(i), "[inherit]\nfrom = p" + std::to_string(i + 1) + "\n");
  s.set(Source::user, "p17", "[process]\nspawn_any = true\n");
  auto ok = load_resolved(s, "p1");  // p1 -> ... -> p17: 16 links
  REQUIRE(ok);
  CHECK((*ok)->chain.size() == 17);
  CHECK((*ok)->values.spawn_any.value);
  auto deep = load_resolved(s, "p0");  // 17 links
  REQUIRE_FALSE(deep);
  CHECK(deep.error().what.find("from: inheritance deeper than 16 levels: p0 -> p1 -> ") !=
        std::string::npos);
}

TEST_CASE("resolver: an invalid parent refuses the whole chain") {
  MemoryStore s;
  s.set(Source::user, "child", "[inherit]\nfrom = broken\n[process]\nspawn_any = false\n");
  s.set(Source::user, "broken", "[process]\nspawn_any = true\nspawn_denylist = a/b\n");
  auto r = load_resolved(s, "child");
  REQUIRE_FALSE(r);
  CHECK(r.error().what.find("user:broken.profile:3: spawn_denylist:") == 0);
}

TEST_CASE("resolver: search order user, system, built-in; include_user=false skips user") {
  MemoryStore s;
  s.set(Source::system, "team", "[profile]\ndescription = system team\n");
  s.set(Source::user, "team", "[profile]\ndescription = user team\n");
  s.set(Source::user, "default", "[profile]\ndescription = user default\n");
  auto u = load_resolved(s, "team");
  REQUIRE(u);
  CHECK((*u)->values.description.value == "user team");
  CHECK((*u)->chain[0].source == Source::user);
  auto sys = load_resolved(s, "team", ResolveOptions{false, false});
  REQUIRE(sys);
  CHECK((*sys)->values.description.value == "system team");
  // the chain of an assigned profile never reaches into the user directory either
  s.set(Source::system, "child", "[inherit]\nfrom = default\n");
  auto c = load_resolved(s, "child", ResolveOptions{false, false});
  REQUIRE(c);
  CHECK((*c)->chain[1].source == Source::builtin);
  CHECK((*c)->values.description.value.find("Full access") == 0);
  // a parent is never searched above its child's source: a user file does not change
  // what a system profile inherits
  auto cu = load_resolved(s, "child");
  REQUIRE(cu);
  CHECK((*cu)->chain[1].source == Source::builtin);
  s.set(Source::user, "uchild", "[inherit]\nfrom = default\n");
  auto uc = load_resolved(s, "uchild");
  REQUIRE(uc);
  CHECK((*uc)->values.description.value == "user default");
}

TEST_CASE("resolver: a broken user file never falls through to a looser one") {
  MemoryStore s;
  s.set(Source::user, "restricted", "[process]\nspawn_any = perhaps\n");
  auto r = load_resolved(s, "restricted");
  CHECK_FALSE(r);
}

TEST_CASE("resolver: names are never paths") {
  MemoryStore s;
  auto r = load_resolved(s, "../etc/passwd");
  REQUIRE_FALSE(r);
  CHECK(r.error().what.find("invalid profile name") == 0);
}
