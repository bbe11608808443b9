// Selection order of profiles.md, with lash.conf users/groups, trust checks and fallback.
#include "policy/selector.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "policy/session_select.h"
#include "policy/system_policy.h"

using namespace lash::policy;

namespace {

struct World {
  MemoryStore store;
  SelectInputs in;
  int group_lookups = 0;
  std::optional<std::string> config;
  World() {
    in.user_name = [] { return std::string("bob"); };
    in.group_names = [this] {
      ++group_lookups;
      return std::vector<std::string>{"bob", "dev"};
    };
    in.config_path = "/home/bob/.lash/config";
    in.read_config = [this]() -> lash::Result<std::optional<std::string>> { return config; };
  }
  void lash_conf(std::string text, std::string untrusted = "") {
    in.system = SystemPolicyFile{"/etc/lash/lash.conf", std::move(text), std::move(untrusted), ""};
  }
  lash::Result<Selection> select() { return select_profile(in, store); }
};

}  // namespace

TEST_CASE("selection: nothing requested gives `default`") {
  World w;
  auto s = w.select();
  REQUIRE(s);
  CHECK(s->profile->name == "default");
  CHECK(s->origin == Origin::builtin_default);
  CHECK_FALSE(s->assigned);
  CHECK(s->warnings.empty());
}

TEST_CASE("selection: -p beats LASH_PROFILE beats config beats default") {
  World w;
  w.config = "[profile]\ndefault = script\n";
  auto c = w.select();
  REQUIRE(c);
  CHECK(c->profile->name == "script");
  CHECK(c->origin == Origin::config);
  CHECK(c->where == "/home/bob/.lash/config:2");
  w.in.env = "restricted";
  auto e = w.select();
  REQUIRE(e);
  CHECK(e->profile->name == "restricted");
  CHECK(e->origin == Origin::env);
  w.in.cli = "ci";
  auto p = w.select();
  REQUIRE(p);
  CHECK(p->profile->name == "ci");
  CHECK(p->origin == Origin::cli);
  w.in.cli.reset();
  w.in.env = "";  // empty counts as unset
  auto back = w.select();
  REQUIRE(back);
  CHECK(back->profile->name == "script");
}

TEST_CASE("selection: an explicitly requested profile that cannot load is an error") {
  World w;
  w.in.cli = "nothere";
  auto s = w.select();
  REQUIRE_FALSE(s);
  CHECK(s.error().what == "cannot use profile 'nothere' (from -p):\nprofile 'nothere' not found");
  w.in.cli = "../x";
  CHECK_FALSE(w.select());
  w.in.cli.reset();
  w.store.set(Source::user, "default", "[process]\nspawn_any = sure\n");
  auto d = w.select();  // a broken user `default` is not silently replaced
  REQUIRE_FALSE(d);
  CHECK(d.error().what.find("user:default.profile:2: spawn_any:") != std::string::npos);
  w.store.remove(Source::user, "default");
  w.config = "[profile]\ndefualt = ci\n";
  auto c = w.select();
  REQUIRE_FALSE(c);
  CHECK(c.error().what ==
        "/home/bob/.lash/config:2: defualt: unknown key in [profile]; did you mean 'default'?");
}

TEST_CASE("selection: lash.conf assigns by user, then by group in file order") {
  World w;
  w.lash_conf("[groups]\nstaff = script\ndev = ci\n[users]\nalice = default\n");
  auto g = w.select();
  REQUIRE(g);
  CHECK(g->profile->name == "ci");
  CHECK(g->origin == Origin::assigned);
  CHECK(g->assigned);
  CHECK(g->where == "/etc/lash/lash.conf:3");
  w.lash_conf("[users]\nbob = restricted\n[groups]\ndev = ci\n");
  auto u = w.select();
  REQUIRE(u);
  CHECK(u->profile->name == "restricted");
  CHECK(w.group_lookups == 1);  // only the first selection needed the groups
}

TEST_CASE("selection: groups are only looked up when lash.conf has [groups]") {
  World w;
  w.lash_conf("[users]\nalice = ci\n");
  auto s = w.select();
  REQUIRE(s);
  CHECK(s->profile->name == "default");
  CHECK(w.group_lookups == 0);
}

TEST_CASE("selection: an assigned profile ignores the user directory for its whole chain") {
  World w;
  w.store.set(Source::system, "team", "[inherit]\nfrom = ci\n[profile]\ndescription = team\n");
  w.store.set(Source::user, "team", "[process]\nspawn_any = true\n");
  w.store.set(Source::user, "ci", "[process]\nspawn_any = true\n");
  w.lash_conf("[users]\nbob = team\n");
  auto s = w.select();
  REQUIRE(s);
  CHECK(s->profile->values.description.value == "team");
  CHECK_FALSE(s->profile->values.spawn_any.value);
  CHECK(s->profile->chain[0].source == Source::system);
  CHECK(s->profile->chain[1].source == Source::builtin);
}

TEST_CASE("selection: -p and LASH_PROFILE need profile_switch under an assignment") {
  World w;
  w.lash_conf("[users]\nbob = restricted\n");
  w.in.cli = "default";
  auto s = w.select();
  REQUIRE_FALSE(s);
  CHECK(s.error().what ==
        "cannot use profile 'default' (from -p): /etc/lash/lash.conf:2 assigns profile "
        "'restricted', which does not allow choosing another (profile_switch = false)");
  w.in.cli = "restricted";  // asking for the assigned one is fine
  CHECK(w.select());
  w.in.cli.reset();
  w.in.env = "default";
  CHECK_FALSE(w.select());
  // with profile_switch = true the request is honoured (and may come from the user dir)
  w.store.set(Source::system, "open", "[capabilities]\nprofile_switch = true\n");
  w.store.set(Source::user, "mine", "[process]\nspawn_any = true\n");
  w.lash_conf("[users]\nbob = open\n");
  w.in.env = "mine";
  auto ok = w.select();
  REQUIRE(ok);
  CHECK(ok->profile->name == "mine");
  CHECK(ok->origin == Origin::env);
  CHECK(ok->assigned_name == "open");
  CHECK_FALSE(ok->assigned);
}

TEST_CASE("selection: an unloadable assigned profile falls back to the built-in restricted") {
  World w;
  w.store.set(Source::system, "team", "[process]\nspawn_any = true\nbogus = 1\n");
  w.store.set(Source::system, "restricted", "[process]\nspawn_any = true\n");  // not used
  w.lash_conf("[users]\nbob = team\n");
  auto s = w.select();
  REQUIRE(s);
  CHECK(s->origin == Origin::fallback);
  CHECK(s->profile->name == "restricted");
  CHECK(s->profile->chain[0].source == Source::builtin);
  CHECK_FALSE(s->profile->values.spawn_any.value);
  REQUIRE(s->warnings.size() == 1);
  CHECK(s->warnings[0].find("profile 'team' assigned by /etc/lash/lash.conf:2 cannot be loaded") == 0);
  CHECK(s->warnings[0].find("using the built-in 'restricted' profile") != std::string::npos);
  w.lash_conf("[users]\nbob = missing\n");
  auto m = w.select();
  REQUIRE(m);
  CHECK(m->origin == Origin::fallback);
}

TEST_CASE("selection: a broken lash.conf fails closed; an untrusted one is ignored") {
  World w;
  w.lash_conf("[users]\nbob = ci\nbob = default\n");
  auto b = w.select();
  REQUIRE(b);
  CHECK(b->origin == Origin::fallback);
  CHECK(b->profile->name == "restricted");
  CHECK(b->warnings[0].find("/etc/lash/lash.conf:3: bob: duplicate key") != std::string::npos);
  w.lash_conf("[users]\nbob = restricted\n", "/etc/lash is writable by users other than root");
  auto u = w.select();
  REQUIRE(u);
  CHECK(u->profile->name == "default");
  REQUIRE(u->warnings.size() == 1);
  CHECK(u->warnings[0] ==
        "ignoring /etc/lash/lash.conf: /etc/lash is writable by users other than root");
}

TEST_CASE("system policy: format errors are located") {
  auto r = parse_system_policy("[user]\nbob = ci\n", "c");
  REQUIRE_FALSE(r);
  CHECK(r.error().what == "c:1: [user]: unknown section (expected [users] or [groups]); did you mean [users]?");
  auto n = parse_system_policy("[users]\nbob = ../ci\n", "c");
  REQUIRE_FALSE(n);
  CHECK(n.error().what.find("c:2: bob: invalid profile name") == 0);
  auto a = parse_system_policy("[users]\nb ob = ci\n", "c");
  CHECK_FALSE(a);
}

TEST_CASE("system policy: trust requires root ownership and no group/other write") {
  FileFacts good{0, S_IFREG | 0644}, dir{0, S_IFDIR | 0755};
  CHECK(trust_problem("f", good, "d", dir).empty());
  CHECK(trust_problem("f", {1000, S_IFREG | 0644}, "d", dir) == "f is not owned by root");
  CHECK(trust_problem("f", {0, S_IFREG | 0664}, "d", dir) == "f is writable by users other than root");
  CHECK(trust_problem("f", {0, S_IFREG | 0646}, "d", dir) == "f is writable by users other than root");
  CHECK(trust_problem("f", good, "d", {0, S_IFDIR | 0777}) == "d is writable by users other than root");
  CHECK(trust_problem("f", good, "d", {1000, S_IFDIR | 0755}) == "d is not owned by root");
}

TEST_CASE("system dir: the test override never replaces a real system policy") {
  CHECK(choose_system_dir("/etc/lash", nullptr, false) == "/etc/lash");
  CHECK(choose_system_dir("/etc/lash", "/tmp/t", false) == "/tmp/t");
  CHECK(choose_system_dir("/etc/lash", "/tmp/t", true) == "/etc/lash");
  CHECK(choose_system_dir("/etc/lash", "", false) == "/etc/lash");
}

TEST_CASE("lash.conf: a user assigned twice makes the file invalid, not the first line win") {
  // Found by conf_fuzz: a duplicate key is a soft error of read_ini (a profile reports
  // it with its other errors); lash.conf ignored it and used the first assignment.
  auto p = parse_system_policy("[users]\nalice = restricted\nalice = default\n", "lash.conf");
  REQUIRE_FALSE(p);
  CHECK(p.error().what.find("duplicate key") != std::string::npos);
  auto d = config_default_profile("[profile]\ndefault = ci\ndefault = default\n", "config");
  CHECK_FALSE(d);
}
