#include "policy/review.h"

#include <doctest/doctest.h>

#include "helpers.h"
#include "policy/resolver.h"

using namespace lash::policy;

TEST_CASE("review: every key with its value and provenance") {
  MemoryStore s;
  s.set(Source::user, "team", "[inherit]\nfrom = ci\n[resources]\nmax_memory = 1G\n");
  auto p = load_resolved(s, "team");
  REQUIRE(p);
  std::string text = review_text(**p);
  CHECK(text.find("Inheritance: team -> ci\n") != std::string::npos);
  CHECK(text.find("  max_memory = 1G") != std::string::npos);
  CHECK(text.find("# user:team.profile:4; kernel") != std::string::npos);
  CHECK(text.find("  job_control_others = false") != std::string::npos);
  CHECK(text.find("# base; policy layer only") != std::string::npos);
  CHECK(text.find("  force = CI=true") != std::string::npos);
  CHECK(text.find("# builtin:ci.profile:") != std::string::npos);
  CHECK(text.find("Checked by the policy layer only") != std::string::npos);
  for (const auto& k : all_keys())
    CHECK(text.find("  " + std::string(k.key()) + " = ") != std::string::npos);
  Json j = review_json(**p);
  CHECK(j["profile"] == "team");
  CHECK(j["keys"].size() == all_keys().size());
  bool seen = false;
  for (const auto& k : j["keys"]) {
    if (k["key"] == "resources.max_memory") {
      seen = true;
      CHECK(k["value"] == (1ull << 30));
      CHECK(k["source"] == "user:team.profile:4");
      CHECK(k["set"] == true);
    }
    if (k["key"] == "environment.pass") CHECK(k["value"].is_null());
  }
  CHECK(seen);
}

TEST_CASE("permissions: capabilities and limits") {
  auto p = test::resolved("[capabilities]\naudit_access = true\n[resources]\nmax_open_files = 64\n");
  std::string text = permissions_text(*p);
  CHECK(text.find("audit_access: true") != std::string::npos);
  CHECK(text.find("max_open_files: 64") != std::string::npos);
  CHECK(text.find("max_memory: 0 (unlimited)") != std::string::npos);
  Json j = permissions_json(*p);
  CHECK(j["capabilities"]["audit_access"] == true);
  CHECK(j["capabilities"]["file_redirect"] == false);
  CHECK(j["resources"]["max_open_files"] == 64);
}

TEST_CASE("list: every profile once, active marked, broken ones with their error") {
  MemoryStore s;
  s.set(Source::user, "mine", "[profile]\ndescription = my own\n");
  s.set(Source::system, "bad", "[process]\nspawn_any = maybe\n");
  s.set(Source::system, "ci", "[profile]\ndescription = site ci\n");
  auto entries = list_profiles(s);
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"bad", "ci", "ci-strict", "default", "mine", "restricted", "script"});
  std::string text = list_text(entries, "ci");
  CHECK(text.find("* ci             system   site ci\n") != std::string::npos);
  CHECK(text.find("  mine           user     my own\n") != std::string::npos);
  CHECK(text.find("  bad            system   BROKEN: system:bad.profile:2: spawn_any:") != std::string::npos);
  Json j = list_json(entries, "ci");
  CHECK(j["profiles"][1]["active"] == true);
  CHECK(j["profiles"][0].contains("error"));
}

TEST_CASE("profile create: the template is a valid profile inheriting from the parent") {
  std::string t = profile_template("mine", "ci");
  auto p = test::parse(t, "mine");
  REQUIRE_MESSAGE(p, p.error().message());
  CHECK(p->profile.inherit_from.value == "ci");
  MemoryStore s;
  s.set(Source::user, "mine", t);
  auto r = load_resolved(s, "mine");
  REQUIRE(r);
  CHECK((*r)->values.spawn_allowlist.value == load_resolved(s, "ci").value()->values.spawn_allowlist.value);
}

TEST_CASE("profile create: without a parent the template is narrow") {
  std::string t = profile_template("mine", "");
  MemoryStore s;
  s.set(Source::user, "mine", t);
  auto r = load_resolved(s, "mine");
  REQUIRE_MESSAGE(r, r.error().message());
  const Profile& p = (*r)->values;
  CHECK_FALSE(p.inherit_from.set);
  CHECK_FALSE(p.spawn_any.value);
  CHECK(p.read_write.value.empty());
  CHECK(p.allow_hosts.value.empty());
  CHECK_FALSE(p.file_redirect.value);
  CHECK_FALSE(p.profile_manage.value);
}

TEST_CASE("profile validate: a file by path") {
  auto good = load_profile_file(std::string(LASH_TEST_DATA) + "/profiles/good.profile");
  REQUIRE(good);
  CHECK(good->name == "good");
  auto bad = load_profile_file(std::string(LASH_TEST_DATA) + "/profiles/unknown-key.profile");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().what.find("unknown-key.profile:3: spawn_alowlist:") != std::string::npos);
  CHECK_FALSE(load_profile_file("/nonexistent/x.profile"));
}
