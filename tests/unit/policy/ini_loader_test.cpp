#include "policy/ini_loader.h"

#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::policy;

namespace {
std::string errors_of(const std::string& text) {
  auto r = test::parse(text);
  REQUIRE_FALSE(r.ok());
  return r.error().what;
}
}  // namespace

TEST_CASE("read_ini: sections, keys and their line numbers") {
  Diags d;
  auto doc = read_ini("; comment\n[a]\nx = 1\n\n[b]\n# c\ny=two words ; inline\n", "f", d);
  REQUIRE(doc);
  CHECK(d.empty());
  REQUIRE(doc->sections.size() == 2);
  CHECK(doc->sections[0].name == "a");
  CHECK(doc->sections[0].line == 2);
  CHECK(doc->sections[0].entries[0].key == "x");
  CHECK(doc->sections[0].entries[0].value == "1");
  CHECK(doc->sections[0].entries[0].line == 3);
  CHECK(doc->sections[1].entries[0].value == "two words");
  CHECK(doc->sections[1].entries[0].line == 7);
}

TEST_CASE("read_ini: a 300-byte line is refused, not truncated") {
  std::string text = "[process]\nspawn_allowlist = " + std::string(300, 'a') + "\n";
  Diags d;
  CHECK_FALSE(read_ini(text, "f.profile", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].line == 2);
  CHECK(d[0].text().find("f.profile:2: line is 319 bytes long") == 0);
}

TEST_CASE("read_ini: a key name inih would cut for its continuation lines is refused") {
  // Found by conf_fuzz: inih keeps the key of a continuation line in a 50-byte buffer,
  // so the continuation of a longer key came back as a second entry under a cut name.
  std::string key(49, 'k');
  Diags d;
  CHECK_FALSE(read_ini("[users]\n" + key + " = ci\n    more\n", "lash.conf", d));
  REQUIRE(!d.empty());  // line 2, and line 3 again (its cut name is still too long)
  CHECK(d[0].line == 2);
  CHECK(d[0].text().find("longer than 48 bytes") != std::string::npos);
  Diags ok;
  auto doc = read_ini("[users]\n" + std::string(48, 'k') + " = ci\n    more\n", "lash.conf", ok);
  REQUIRE(doc);
  CHECK(ok.empty());
  REQUIRE(doc->sections[0].entries.size() == 1);
  CHECK(doc->sections[0].entries[0].continuations.size() == 1);
}

TEST_CASE("read_ini: a 199-byte line (newline included) is accepted, 200 is not") {
  std::string prefix = "[p]\nk = ";
  std::string ok_value(199 - 5, 'v');  // "k = " + value + "\n" == 199 bytes
  Diags d;
  auto doc = read_ini(prefix + ok_value + "\n", "f", d);
  REQUIRE(doc);
  CHECK(doc->sections[0].entries[0].value == ok_value);
  CHECK_FALSE(read_ini(prefix + ok_value + "v\n", "f", d));
}

TEST_CASE("read_ini: long section names sharing a 49-byte prefix are not merged") {
  std::string common(49, 's');
  std::string text = "[" + common + "X]\nk = 1\n[" + common + "Y]\nk = 2\n";
  Diags d;
  auto doc = read_ini(text, "f", d);
  // inih cuts section names at 49 bytes; the loader must notice instead of merging the
  // two sections (which would make the second `k` a duplicate of the first).
  CHECK_FALSE(doc);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].message.find("too long") != std::string::npos);
  for (const auto& x : d) CHECK(x.message.find("duplicate") == std::string::npos);
}

TEST_CASE("read_ini: NUL bytes and files over 64 KiB are refused") {
  Diags d;
  CHECK_FALSE(read_ini(std::string("[a]\nx = 1\ny = \0\n", 16), "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].text() == "f:3: NUL byte in file");
  d.clear();
  std::string big;
  while (big.size() <= kMaxPolicyFile) big += "; padding padding padding padding\n";
  CHECK_FALSE(read_ini(big, "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].text() == "f: file is larger than 64 KiB");
}

TEST_CASE("read_ini: duplicate keys are errors naming both lines") {
  Diags d;
  // a soft error: the document comes back (first value kept) so the caller reports
  // its other errors too; the diagnostic still makes the file fail
  CHECK(read_ini("[a]\nx = 1\ny = 2\nx = 3\n", "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].text() == "f:4: x: duplicate key (first set on line 2)");
}

TEST_CASE("read_ini: duplicate keys across repeated section headers") {
  Diags d;
  CHECK(read_ini("[a]\nx = 1\n[b]\n[a]\nx = 3\n", "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].line == 5);
}

TEST_CASE("read_ini: syntax errors are located") {
  Diags d;
  CHECK_FALSE(read_ini("[a]\nx = 1\nno equals sign\n", "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].text() == "f:3: syntax error: expected '[section]' or 'key = value'");
  d.clear();
  CHECK_FALSE(read_ini("[a\nx = 1\n", "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].line == 1);
}

TEST_CASE("read_ini: text after a section header is an error, not dropped (found by conf_fuzz)") {
  Diags d;
  // inih ignores what follows ']': the assignment below would silently vanish.
  CHECK_FALSE(read_ini("[users] alice = restricted\n", "lash.conf", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].text() == "lash.conf:1: text after ']' would be ignored; put 'key = value' on a line of its own");
  d.clear();
  CHECK_FALSE(read_ini("[]\nx = 1\n", "f", d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].line == 1);
  d.clear();
  auto doc = read_ini("[users] ; who\r\nalice = ci\n[groups]\t# and groups\n", "f", d);
  REQUIRE(doc);
  CHECK(d.empty());
  REQUIRE(doc->find("users"));
  CHECK(doc->find("users")->entries.size() == 1);
}

TEST_CASE("read_ini: indented lines are continuations of the previous key") {
  Diags d;
  auto doc = read_ini("[a]\nx = 1,\n   2\n\n  3\ny = 4\n", "f", d);
  REQUIRE(doc);
  const auto& e = doc->sections[0].entries[0];
  CHECK(e.value == "1,");
  REQUIRE(e.continuations.size() == 2);
  CHECK(e.continuations[0].line == 3);
  CHECK(e.continuations[0].value == "2");
  CHECK(e.continuations[1].line == 5);
  CHECK(doc->sections[0].entries[1].key == "y");
}

TEST_CASE("profile: continuation lines extend lists, with each item located") {
  auto p = test::parse("[process]\nspawn_allowlist = ls, cat,\n    grep\n");
  REQUIRE(p);
  CHECK(p->profile.spawn_allowlist.value == List{"ls", "cat", "grep"});
  CHECK(p->profile.spawn_allowlist.from.line == 2);
  auto bad = errors_of("[process]\nspawn_allowlist = ls,\n    a/b\n");
  CHECK(bad.find("t.profile:3: spawn_allowlist: expected a bare command name") == 0);
}

TEST_CASE("profile: a continuation of a single-valued key is an error") {
  CHECK(errors_of("[process]\nspawn_any = true\n   false\n") ==
        "t.profile:3: spawn_any: takes a single value; indented lines continue the previous "
        "key (remove the indentation)");
}

TEST_CASE("profile: unknown keys get the nearest key as a suggestion") {
  CHECK(errors_of("[process]\nspawn_alowlist = ls\n") ==
        "t.profile:2: spawn_alowlist: unknown key in [process]; did you mean 'spawn_allowlist'?");
  CHECK(errors_of("[process]\nallow_hosts = example.com\n") ==
        "t.profile:2: allow_hosts: unknown key in [process]; 'allow_hosts' belongs in [network]");
  CHECK(errors_of("[process]\nzzzzzzzzzz = 1\n") == "t.profile:2: zzzzzzzzzz: unknown key in [process]");
}

TEST_CASE("profile: unknown sections and keys outside sections") {
  CHECK(errors_of("[proces]\nspawn_any = true\n") ==
        "t.profile:1: [proces]: unknown section; did you mean [process]?");
  CHECK(errors_of("spawn_any = true\n") == "t.profile:1: spawn_any: key outside of a [section]");
}

TEST_CASE("profile: every error of a file is reported and none of it applies") {
  auto r = test::parse("[process]\nspawn_any = maybe\n[capabilities]\nfile_redirect = yes\n"
                       "plugin_access = sometimes\n");
  REQUIRE_FALSE(r);
  CHECK(r.error().what ==
        "t.profile:2: spawn_any: expected true/false, yes/no, on/off or 1/0, got 'maybe'\n"
        "t.profile:5: plugin_access: expected true/false, yes/no, on/off or 1/0, got 'sometimes'");
}

TEST_CASE("profile: values and provenance of a good file") {
  auto r = test::parse(
      "[profile]\ndescription = A test\n[process]\nspawn_any = off\n"
      "[filesystem]\nread_write = ./out, ~/cache, /tmp\ntmpdir = session\nprotect =\n"
      "[network]\nallow_hosts = Example.COM., *.example.org, 10.0.0.0/8\nallow_ports = 443, 8000-8100\n"
      "[resources]\nmax_memory = 2G\nmax_processes = 64\n"
      "[environment]\nforce = CI=true, A=b=c\npass = PATH, LC_*\n");
  REQUIRE(r);
  const Profile& p = r->profile;
  CHECK(p.description.value == "A test");
  CHECK(p.spawn_any.set);
  CHECK_FALSE(p.spawn_any.value);
  CHECK(p.spawn_any.from.text() == "t.profile:4");
  CHECK(p.read_write.value == List{"./out", "~/cache", "/tmp"});
  CHECK(p.tmpdir.value == Tmpdir::session);
  CHECK(p.protect.set);
  CHECK(p.protect.value.empty());
  CHECK(p.allow_hosts.value == List{"example.com", "*.example.org", "10.0.0.0/8"});
  CHECK(p.allow_ports.value == Ports{{443, 443}, {8000, 8100}});
  CHECK(p.max_memory.value == 2ull << 30);
  CHECK(p.max_processes.value == 64);
  CHECK(p.env_force.value == List{"CI=true", "A=b=c"});
  CHECK(p.env_pass.set);
  CHECK_FALSE(p.env_deny.set);
  CHECK(p.system_paths.value);  // base
  CHECK(p.system_paths.from.is_base());
}
