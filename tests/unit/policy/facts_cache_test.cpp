// The cache of the spawn lists' real paths against real directories: what it reads
// back is what make_session_facts computes, and each change that could alter a PATH
// search or a symlink chain makes it compute again.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "base/state_cache.h"
#include "helpers.h"
#include "policy/facts_cache.h"

using namespace lash::policy;

namespace {

constexpr int64_t kLater = 60'000'000'000;  // "computed a minute from now": past the tick guard

struct Tree {
  std::string root;
  Tree() {
    char tmpl[] = "/tmp/lash-factscache-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    char buf[PATH_MAX];
    REQUIRE(realpath(tmpl, buf));
    root = buf;
    for (const char* d : {"/a", "/b", "/c", "/d", "/e"}) REQUIRE(mkdir((root + d).c_str(), 0755) == 0);
    file("/b/tool", 0755);
    file("/c/impl", 0755);
    REQUIRE(symlink("../c/impl", (root + "/b/link").c_str()) == 0);
    // A chain through a directory not on PATH: b/hopper -> d/hop -> c/impl.
    REQUIRE(symlink("../d/hop", (root + "/b/hopper").c_str()) == 0);
    REQUIRE(symlink("../c/impl", (root + "/d/hop").c_str()) == 0);
    REQUIRE(link((root + "/c/impl").c_str(), (root + "/c/impl2").c_str()) == 0);  // one file, two names
    file("/b/denied", 0755);
    // Earlier on PATH, a symlink to nothing (yet): the lookup passes it over.
    file("/b/later", 0755);
    REQUIRE(symlink("../e/later", (root + "/a/later").c_str()) == 0);
  }
  ~Tree() { (void)!system(("rm -rf '" + root + "'").c_str()); }
  std::string file(const std::string& rel, mode_t mode) const {
    std::string p = root + rel;
    std::ofstream(p) << "#!/bin/sh\n";
    REQUIRE(chmod(p.c_str(), mode) == 0);
    return p;
  }
  SessionEnv env() const { return SessionEnv{root + "/a:" + root + "/b", root, root, ""}; }
  std::shared_ptr<const ResolvedProfile> profile() const {
    return test::resolved("[process]\nspawn_any = false\nspawn_allowlist = tool, link, hopper, later, absent, " + root +
                          "/c/impl\nspawn_denylist = denied\n");
  }
};

bool same_lists(const SessionFacts& a, const SessionFacts& b) {
  return a.allow_real == b.allow_real && a.allow_real_by_name == b.allow_real_by_name && a.deny_real == b.deny_real;
}

}  // namespace

TEST_CASE("facts cache: the answer read back is the one computed, for these inputs only") {
  Tree t;
  auto prof = t.profile();
  SessionFacts fresh = make_session_facts(*prof, t.env());
  REQUIRE(fresh.allow_real_by_name.at("link") == t.root + "/c/impl");
  REQUIRE(fresh.deny_real.count(t.root + "/b/denied"));
  // Made a moment ago: not stored with the real clock (a second change in the same tick).
  CHECK_FALSE(facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns()));
  auto text = facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns() + kLater);
  REQUIRE(text);
  auto back = facts_from_cache_text(*text, prof->values, t.env());
  REQUIRE(back);
  CHECK(same_lists(*back, fresh));

  SessionEnv other_path = t.env();
  other_path.path_var = t.root + "/b";
  CHECK_FALSE(facts_from_cache_text(*text, prof->values, other_path));
  auto other_list = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = tool\n");
  CHECK_FALSE(facts_from_cache_text(*text, other_list->values, t.env()));
  // A relative PATH entry depends on the current directory: never cached.
  SessionEnv relative = t.env();
  relative.path_var += ":bin";
  CHECK_FALSE(facts_cache_text(prof->values, relative, lash::state_cache::now_ns() + kLater));
}

TEST_CASE("facts cache: a change that alters a PATH search or a chain recomputes") {
  Tree t;
  auto prof = t.profile();
  auto text = facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns() + kLater);
  REQUIRE(text);
  REQUIRE(facts_from_cache_text(*text, prof->values, t.env()));
  usleep(50'000);  // past the clock tick of the tree's last change
  SUBCASE("a name appears earlier on PATH") { t.file("/a/tool", 0755); }
  SUBCASE("a file earlier on PATH becomes executable") {
    // (made non-executable first, before the answer: it only changes mode now)
    std::string p = t.file("/a/tool", 0644);
    text = facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns() + kLater);
    REQUIRE(text);
    usleep(50'000);
    REQUIRE(chmod(p.c_str(), 0755) == 0);
  }
  SUBCASE("a symlink on the chain is pointed elsewhere") {
    REQUIRE(unlink((t.root + "/b/link").c_str()) == 0);
    REQUIRE(symlink("tool", (t.root + "/b/link").c_str()) == 0);
  }
  SUBCASE("a symlink on the chain outside PATH is pointed elsewhere") {
    REQUIRE(unlink((t.root + "/d/hop").c_str()) == 0);
    REQUIRE(symlink("../b/tool", (t.root + "/d/hop").c_str()) == 0);
  }
  SUBCASE("a symlink on the chain outside PATH is pointed at another name of the same file") {
    // The file is the same (stat through the chain sees nothing new), its real path is not.
    REQUIRE(unlink((t.root + "/d/hop").c_str()) == 0);
    REQUIRE(symlink("../c/impl2", (t.root + "/d/hop").c_str()) == 0);
  }
  SUBCASE("the file a chain ends at is replaced") {
    REQUIRE(rename((t.root + "/c/impl").c_str(), (t.root + "/c/old").c_str()) == 0);
    t.file("/c/impl", 0755);
  }
  SUBCASE("a name that was not found appears") { t.file("/b/absent", 0755); }
  SUBCASE("a dangling symlink earlier on PATH starts to resolve") { t.file("/e/later", 0755); }
  SUBCASE("a program loses its execute bit") { REQUIRE(chmod((t.root + "/b/tool").c_str(), 0644) == 0); }
  CHECK_FALSE(facts_from_cache_text(*text, prof->values, t.env()));
}

TEST_CASE("facts cache: a candidate that cannot be examined is never cached") {
  Tree t;
  // A symlink loop earlier on PATH (ELOOP): whether it will resolve cannot be recorded.
  REQUIRE(symlink("loop2", (t.root + "/e/loop1").c_str()) == 0);
  REQUIRE(symlink("loop1", (t.root + "/e/loop2").c_str()) == 0);
  REQUIRE(symlink("../e/loop1", (t.root + "/a/tool").c_str()) == 0);
  auto prof = t.profile();
  CHECK(make_session_facts(*prof, t.env()).allow_real_by_name.at("tool") == t.root + "/b/tool");
  CHECK_FALSE(facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns() + kLater));
}

TEST_CASE("facts cache: damaged text is refused, never a crash") {
  Tree t;
  auto prof = t.profile();
  auto text = facts_cache_text(prof->values, t.env(), lash::state_cache::now_ns() + kLater);
  REQUIRE(text);
  for (size_t n = 0; n < text->size(); ++n) CHECK_FALSE(facts_from_cache_text(text->substr(0, n), prof->values, t.env()));
  for (size_t i = 0; i < text->size(); ++i)
    for (char ch : {'\t', '\n', 'x', '\0'}) {
      std::string bad = *text;
      bad[i] = ch;
      (void)facts_from_cache_text(bad, prof->values, t.env());
    }
  // A resolution for an entry that is not in the lists is not this answer.
  std::string extra = text->substr(0, text->rfind("end\n")) + "R\ta\tcurl\t/usr/bin/curl\nend\n";
  CHECK_FALSE(facts_from_cache_text(extra, prof->values, t.env()));
}

TEST_CASE("facts cache: a session reads back what it stored; writable roots are always fresh") {
  Tree t;
  auto prof = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = cat, sh\n[filesystem]\nread_write = " +
                             t.root + "/c\n");
  SessionEnv env{"/usr/bin:/bin", t.root, t.root, ""};  // system directories: old enough to store
  std::string dir = t.root + "/cache";
  SessionFacts first = cached_session_facts(dir, *prof, env);
  CHECK(same_lists(first, make_session_facts(*prof, env)));
  struct stat st;
  std::string file = dir + "/" + facts_cache_name(prof->values, env);
  if (stat(file.c_str(), &st) != 0) {  // /usr/bin changed in the last 2 s (a package install)
    usleep(2'100'000);
    (void)cached_session_facts(dir, *prof, env);
  }
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(rename((t.root + "/c").c_str(), (t.root + "/c2").c_str()) == 0);
  REQUIRE(mkdir((t.root + "/c").c_str(), 0755) == 0);
  SessionFacts second = cached_session_facts(dir, *prof, env);
  CHECK(same_lists(second, first));
  REQUIRE(second.writable_roots.size() == 1);
  REQUIRE(stat((t.root + "/c").c_str(), &st) == 0);
  CHECK(second.writable_roots[0].ino == static_cast<uint64_t>(st.st_ino));  // the new directory
  CHECK(same_lists(cached_session_facts("", *prof, env), first));
  // What a session uses is the file's answer (one more resolution here), not a fresh one.
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  size_t end = text.rfind("end\n");
  REQUIRE(end != std::string::npos);
  std::ofstream(file, std::ios::trunc) << text.substr(0, end) + "R\ta\tsh\t/usr/bin/marker\nend\n";
  SessionFacts third = cached_session_facts(dir, *prof, env);
  CHECK(third.allow_real.count("/usr/bin/marker") == 1);
}
