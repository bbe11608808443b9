// Every engine rule, each with an allow twin and a deny twin.
#include "policy/engine.h"
#include "policy/auto_detect.h"

#include <doctest/doctest.h>

#include <map>

#include "helpers.h"

using namespace lash::policy;

namespace {

// A fake filesystem: executable files and symlinks (path -> real path).
struct FakeFs {
  std::map<std::string, std::string> real;  // every existing path -> its real path
  FsProbe probe() const {
    FsProbe fs;
    fs.realpath = [this](const std::string& p) -> std::optional<std::string> {
      auto it = real.find(p);
      if (it == real.end()) return std::nullopt;
      return it->second;
    };
    fs.executable = [this](const std::string& p) { return real.count(p) > 0; };
    return fs;
  }
};

FakeFs sample_fs() {
  FakeFs fs;
  fs.real = {{"/usr/bin/ls", "/usr/bin/ls"},
             {"/usr/bin/cat", "/usr/bin/cat"},
             {"/usr/bin/curl", "/usr/bin/curl"},
             {"/usr/bin/python3", "/usr/bin/python3.11"},
             {"/usr/bin/python3.11", "/usr/bin/python3.11"},
             {"/usr/local/bin/ls", "/usr/local/bin/ls"},
             {"/home/u/proj", "/home/u/proj"},
             {"/home/u/link", "/srv/data"},
             {"/tmp/lash-s1", "/tmp/lash-s1"}};
  return fs;
}

SessionEnv sample_env() { return SessionEnv{"/usr/bin:/bin", "/home/u/proj", "/home/u", "/tmp/lash-s1"}; }

Engine engine(const std::string& text, SessionEnv env = sample_env()) {
  auto p = test::resolved(text, "t");
  FakeFs fs = sample_fs();
  return Engine(p, make_session_facts(*p, env, fs.probe()));
}

}  // namespace

TEST_CASE("spawn: spawn_any allows any program") {
  auto e = engine("[process]\nspawn_any = true\n");
  auto d = e.decide(Spawn{"curl", "/usr/bin/curl"});
  CHECK(d.allowed());
  CHECK(d.decided_by.key == "process.spawn_any");
  CHECK(d.decided_by.source_text() == "user:t.profile:2");
  CHECK(d.problem.empty());
}

TEST_CASE("spawn: default deny (nothing set)") {
  auto e = engine("[profile]\ndescription = nothing\n");
  auto d = e.decide(Spawn{"ls", "/usr/bin/ls"});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "process.spawn_allowlist");
  CHECK(d.decided_by.source_text() == "base");
}

TEST_CASE("spawn: allowlist by bare name, matched on the real path") {
  auto e = engine("[process]\nspawn_allowlist = ls, python3\n");
  CHECK(e.decide(Spawn{"ls", "/usr/bin/ls"}).allowed());
  CHECK(e.decide(Spawn{"/usr/bin/ls", "/usr/bin/ls"}).allowed());
  // python3 is a symlink: the planner passes the real path
  CHECK(e.decide(Spawn{"python3", "/usr/bin/python3.11"}).allowed());
  auto d = e.decide(Spawn{"curl", "/usr/bin/curl"});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "process.spawn_allowlist");
  CHECK(d.suggestion == "'curl' is not in the allowlist.");
}

TEST_CASE("spawn: an allowlisted name that resolves to another program is refused") {
  auto e = engine("[process]\nspawn_allowlist = ls\n");
  auto d = e.decide(Spawn{"ls", "/usr/local/bin/ls"});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.suggestion ==
        "'ls' is allowed as /usr/bin/ls by the allowlist, but this 'ls' is /usr/local/bin/ls. "
        "Run /usr/bin/ls.");
}

TEST_CASE("spawn: an exec path outside every writable place is not granted") {
  // A workspace symlink `build -> /usr` resolves to a system tree: not an exec path.
  FakeFs fs = sample_fs();
  fs.real["/home/u/proj/build"] = "/usr";
  auto p = test::resolved("[process]\nspawn_allowlist = ls\nexec_paths = ./build\n"
                          "[filesystem]\ninclude_workdir = true\n", "t");
  auto facts = make_session_facts(*p, sample_env(), fs.probe());
  CHECK(facts.exec_roots.empty());
  REQUIRE(facts.exec_roots_refused.size() == 1);
  Engine e(p, facts);
  CHECK_FALSE(e.decide(Spawn{"cat", "/usr/bin/cat"}).allowed());
}

TEST_CASE("spawn: allowlist by absolute path, through symlinks") {
  auto e = engine("[process]\nspawn_allowlist = /usr/bin/python3\n");
  CHECK(e.decide(Spawn{"python3", "/usr/bin/python3.11"}).allowed());
  CHECK_FALSE(e.decide(Spawn{"cat", "/usr/bin/cat"}).allowed());
}

TEST_CASE("spawn: exec_paths allows programs beneath the starting directory and the tmpdir only") {
  FakeFs fs = sample_fs();
  fs.real["/home/u/proj/t"] = "/home/u/proj/t";
  fs.real["/tmp/lash-s1/bin/tool"] = "/tmp/lash-s1/bin/tool";
  fs.real["/home/u/proj/curl"] = "/home/u/proj/curl";
  auto p = test::resolved("[process]\nspawn_allowlist = ls\nspawn_denylist = curl\nexec_paths = ., $TMPDIR\n"
                          "[filesystem]\ninclude_workdir = true\ntmpdir = session\n", "t");
  Engine e(p, make_session_facts(*p, sample_env(), fs.probe()));
  auto d = e.decide(Spawn{"./t", "/home/u/proj/t"});
  CHECK(d.allowed());
  CHECK(d.decided_by.key == "process.exec_paths");
  CHECK(d.decided_by.source_text() == "user:t.profile:4");
  CHECK(e.decide(Spawn{"tool", "/tmp/lash-s1/bin/tool"}).allowed());
  // Outside the trees, and a program the denylist names, stay refused.
  CHECK_FALSE(e.decide(Spawn{"cat", "/usr/bin/cat"}).allowed());
  CHECK_FALSE(e.decide(Spawn{"/home/u/projx", "/home/u/projx"}).allowed());
  auto denied = e.decide(Spawn{"./curl", "/home/u/proj/curl"});
  CHECK_FALSE(denied.allowed());
  CHECK(denied.decided_by.key == "process.spawn_denylist");
  // Without exec_paths the same program is refused.
  auto strict = engine("[process]\nspawn_allowlist = ls\n");
  CHECK_FALSE(strict.decide(Spawn{"./t", "/home/u/proj/t"}).allowed());
}

TEST_CASE("spawn: a script under an exec path is judged with what its #! line runs") {
  FakeFs fs = sample_fs();
  fs.real["/home/u/proj/she"] = "/home/u/proj/she";
  fs.real["/usr/bin/env"] = "/usr/bin/env";
  fs.real["/usr/bin/sh"] = "/usr/bin/sh";
  fs.real["/usr/bin/sudo"] = "/usr/bin/sudo";
  auto p = test::resolved("[process]\nspawn_allowlist = ls, env, sh\nspawn_denylist = sudo\nexec_paths = .\n"
                          "[filesystem]\ninclude_workdir = true\n", "t");
  Engine e(p, make_session_facts(*p, sample_env(), fs.probe()));
  // No #! line, or one naming allowed programs (or a program in the exec path): allowed.
  CHECK(e.decide(Spawn{"./she", "/home/u/proj/she"}).allowed());
  CHECK(e.decide(Spawn{"./she", "/home/u/proj/she", {"/usr/bin/ls"}}).allowed());
  CHECK(e.decide(Spawn{"./she", "/home/u/proj/she", {"/home/u/proj/interp"}}).allowed());
  // An interpreter outside the allowlist, directly or as env's program: refused, named.
  auto d = e.decide(Spawn{"./she", "/home/u/proj/she", {"/usr/bin/env", "/usr/bin/curl"}});
  CHECK_FALSE(d.allowed());
  CHECK(d.decided_by.key == "process.spawn_allowlist");
  CHECK(d.suggestion ==
        "'./she' is a script (/home/u/proj/she -> /usr/bin/env -> /usr/bin/curl) whose #! line runs "
        "/usr/bin/curl, which is not allowed: add /usr/bin/curl to [process] spawn_allowlist.");
  auto deny = e.decide(Spawn{"./she", "/home/u/proj/she", {"/usr/bin/sudo"}});
  CHECK_FALSE(deny.allowed());
  CHECK(deny.decided_by.key == "process.spawn_denylist");
}

TEST_CASE("spawn: exec_paths $TMPDIR without a session tmpdir grants nothing") {
  SessionEnv env = sample_env();
  env.tmpdir.clear();
  auto p = test::resolved("[process]\nexec_paths = $TMPDIR\n", "t");
  FakeFs fs = sample_fs();
  auto facts = make_session_facts(*p, env, fs.probe());
  CHECK(facts.exec_roots.empty());
}

TEST_CASE("spawn: a name not found is matched by name only") {
  auto e = engine("[process]\nspawn_allowlist = notinstalled\n");
  CHECK(e.decide(Spawn{"notinstalled", ""}).allowed());
  CHECK_FALSE(e.decide(Spawn{"other", ""}).allowed());
}

TEST_CASE("spawn: denylist wins over spawn_any, by name, program name and real path") {
  auto e = engine("[process]\nspawn_any = true\nspawn_denylist = curl, python3\n");
  CHECK(e.decide(Spawn{"ls", "/usr/bin/ls"}).allowed());
  auto d = e.decide(Spawn{"curl", "/usr/bin/curl"});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "process.spawn_denylist");
  CHECK(d.decided_by.source_text() == "user:t.profile:3");
  CHECK(d.suggestion == "'curl' is in the denylist.");
  CHECK_FALSE(e.decide(Spawn{"/usr/bin/curl", "/usr/bin/curl"}).allowed());
  // a symlink with another name to a denied program
  CHECK_FALSE(e.decide(Spawn{"c", "/usr/bin/curl"}).allowed());
  // python3's real path is python3.11
  CHECK_FALSE(e.decide(Spawn{"python3.11", "/usr/bin/python3.11"}).allowed());
}

TEST_CASE("redirect: reads are not checked, writes need file_redirect") {
  auto off = engine("[process]\nspawn_any = true\n");
  CHECK(off.decide(Redirect{"/etc/passwd", RedirectMode::read}).allowed());
  for (auto m : {RedirectMode::write, RedirectMode::append, RedirectMode::clobber,
                 RedirectMode::read_write, RedirectMode::write_both, RedirectMode::append_both}) {
    auto d = off.decide(Redirect{"/home/u/proj/out", m});
    CHECK(d.verdict == Verdict::deny);
    CHECK(d.decided_by.key == "capabilities.file_redirect");
  }
  auto on = engine("[capabilities]\nfile_redirect = true\n[filesystem]\nread_write = /\n");
  CHECK(on.decide(Redirect{"/etc/x", RedirectMode::write}).allowed());
}

TEST_CASE("redirect: baseline devices are writable with system_paths") {
  auto e = engine("[capabilities]\nfile_redirect = false\n");
  auto d = e.decide(Redirect{"/dev/null", RedirectMode::write});
  CHECK(d.allowed());
  CHECK(d.decided_by.key == "filesystem.system_paths");
  CHECK(e.decide(Redirect{"/dev/pts/3", RedirectMode::write}).allowed());
  CHECK_FALSE(e.decide(Redirect{"/dev/sda", RedirectMode::write}).allowed());
  auto no = engine("[filesystem]\nsystem_paths = false\n");
  CHECK_FALSE(no.decide(Redirect{"/dev/null", RedirectMode::write}).allowed());
}

TEST_CASE("redirect: a restricted filesystem allows writes only beneath writable roots") {
  auto e = engine("[capabilities]\nfile_redirect = true\n[filesystem]\ninclude_workdir = true\n"
                  "tmpdir = session\nread_write = ~/link\nprotect = .git/hooks\n");
  auto w = e.decide(Redirect{"/home/u/proj/build/out.o", RedirectMode::write});
  CHECK(w.allowed());
  CHECK(w.decided_by.key == "filesystem.include_workdir");
  auto t = e.decide(Redirect{"/tmp/lash-s1/x", RedirectMode::append});
  CHECK(t.allowed());
  CHECK(t.decided_by.key == "filesystem.tmpdir");
  // ~/link is a symlink to /srv/data: the root is its real path
  CHECK(e.decide(Redirect{"/srv/data/f", RedirectMode::write}).allowed());
  auto out = e.decide(Redirect{"/home/u/proj2/x", RedirectMode::write});
  CHECK(out.verdict == Verdict::deny);
  CHECK(out.decided_by.key == "filesystem.read_write");
  CHECK(out.suggestion ==
        "'/home/u/proj2/x' is outside the writable paths (sandbox, read_write, tmpdir, "
        "include_workdir). Write beneath /srv/data, /tmp/lash-s1, /home/u/proj.");
  auto hook = e.decide(Redirect{"/home/u/proj/.git/hooks/pre-commit", RedirectMode::write});
  CHECK(hook.verdict == Verdict::deny);
  CHECK(hook.decided_by.key == "filesystem.protect");
  CHECK(e.decide(Redirect{"/home/u/proj/.git/HEAD", RedirectMode::write}).allowed());
}

TEST_CASE("redirect: sandbox and the default protect list") {
  auto e = engine("[capabilities]\nfile_redirect = true\n[filesystem]\nsandbox = ./sb\n");
  auto ok = e.decide(Redirect{"/home/u/proj/sb/a", RedirectMode::write});
  CHECK(ok.allowed());
  CHECK(ok.decided_by.key == "filesystem.sandbox");
  CHECK_FALSE(e.decide(Redirect{"/home/u/proj/a", RedirectMode::write}).allowed());
  CHECK_FALSE(e.decide(Redirect{"/home/u/proj/sb/.git/config", RedirectMode::write}).allowed());
}

TEST_CASE("redirect: nothing writable") {
  auto e = engine("[capabilities]\nfile_redirect = true\n");
  auto d = e.decide(Redirect{"/home/u/proj/x", RedirectMode::write});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.suggestion == "Nothing is writable in this profile (sandbox, read_write, tmpdir, "
                        "include_workdir).");
}

TEST_CASE("env: mutation and safelist") {
  auto off = engine("[profile]\ndescription = x\n");
  auto d = off.decide(EnvChange{"PATH", EnvOp::export_var});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "environment.mutation");
  auto any = engine("[environment]\nmutation = true\n");
  CHECK(any.decide(EnvChange{"PATH", EnvOp::set}).allowed());
  auto safe = engine("[environment]\nmutation = true\nsafelist = CFLAGS, LC_*\n");
  CHECK(safe.decide(EnvChange{"CFLAGS", EnvOp::set}).allowed());
  CHECK(safe.decide(EnvChange{"LC_ALL", EnvOp::unset}).allowed());
  auto no = safe.decide(EnvChange{"LD_PRELOAD", EnvOp::export_var});
  CHECK(no.verdict == Verdict::deny);
  CHECK(no.decided_by.key == "environment.safelist");
}

TEST_CASE("builtin: each capability decides its builtins") {
  const Capability all[] = {Capability::plugin_access, Capability::config_modify,
                            Capability::session_manage, Capability::job_control_own,
                            Capability::job_control_others, Capability::audit_access,
                            Capability::profile_manage, Capability::profile_switch};
  auto none = engine("[profile]\ndescription = x\n");
  for (auto c : all) {
    std::string key = "capabilities." + std::string(capability_name(c));
    auto d = none.decide(Builtin{c, "b"});
    CHECK(d.verdict == Verdict::deny);
    CHECK(d.decided_by.key == key);
    auto yes = engine("[capabilities]\n" + std::string(capability_name(c)) + " = true\n");
    CHECK(yes.decide(Builtin{c, "b"}).allowed());
    // only that one
    for (auto other : all)
      if (other != c) CHECK_FALSE(yes.decide(Builtin{other, "b"}).allowed());
  }
}

TEST_CASE("plugin: plugin_access and plugin_allowlist") {
  CHECK(engine("[capabilities]\nplugin_access = false\n").decide(PluginCall{"git", "status"}).decided_by.key ==
        "capabilities.plugin_access");
  auto all = engine("[capabilities]\nplugin_access = true\n");
  CHECK(all.decide(PluginCall{"git", "status"}).allowed());
  auto some = engine("[capabilities]\nplugin_access = true\nplugin_allowlist = git\n");
  CHECK(some.decide(PluginCall{"git", "status"}).allowed());
  auto d = some.decide(PluginCall{"docker", "ps"});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "capabilities.plugin_allowlist");
}

TEST_CASE("network: hosts, wildcards, IP ranges and ports") {
  auto e = engine("[network]\nallow_hosts = example.com, *.example.org, 10.0.0.0/8\n");
  CHECK(e.decide(NetConnect{"example.com", "93.184.216.34", 443, "example.com"}).allowed());
  CHECK(e.decide(NetConnect{"EXAMPLE.com.", "", 80, ""}).allowed());
  CHECK(e.decide(NetConnect{"a.b.example.org", "", 443, ""}).allowed());
  CHECK_FALSE(e.decide(NetConnect{"example.org", "", 443, ""}).allowed());  // not the apex
  CHECK_FALSE(e.decide(NetConnect{"evilexample.com", "", 443, ""}).allowed());
  CHECK(e.decide(NetConnect{"", "10.1.2.3", 443, ""}).allowed());
  CHECK_FALSE(e.decide(NetConnect{"", "11.1.2.3", 443, ""}).allowed());
  auto port = e.decide(NetConnect{"example.com", "", 22, ""});
  CHECK(port.verdict == Verdict::deny);
  CHECK(port.decided_by.key == "network.allow_ports");
  CHECK(port.suggestion == "Port 22 is not in allow_ports (80, 443).");
  auto host = e.decide(NetConnect{"evil.com", "", 443, ""});
  CHECK(host.decided_by.key == "network.allow_hosts");
  CHECK(host.suggestion == "'evil.com' is not in allow_hosts.");
}

TEST_CASE("network: the SNI must be allowed too; an IP-literal SNI needs an IP rule") {
  auto e = engine("[network]\nallow_hosts = example.com\n");
  CHECK_FALSE(e.decide(NetConnect{"example.com", "1.2.3.4", 443, "evil.com"}).allowed());
  CHECK_FALSE(e.decide(NetConnect{"example.com", "1.2.3.4", 443, "1.2.3.4"}).allowed());
  auto ip = engine("[network]\nallow_hosts = 1.2.3.0/24\n");
  CHECK(ip.decide(NetConnect{"", "1.2.3.4", 443, "1.2.3.4"}).allowed());
  // The claimed name must be the one lash's DNS gave the IP for, both being allowed.
  auto two = engine("[network]\nallow_hosts = a.com, b.com\n");
  CHECK(two.decide(NetConnect{"a.com", "1.2.3.4", 443, "A.com."}).allowed());
  CHECK_FALSE(two.decide(NetConnect{"a.com", "1.2.3.4", 443, "b.com"}).allowed());
  CHECK_FALSE(two.decide(NetConnect{"1.2.3.4", "1.2.3.4", 443, "b.com"}).allowed());  // IP not from DNS
}

TEST_CASE("network: explicit ports, block_all_others and warn") {
  auto p = engine("[network]\nallow_hosts = example.com\nallow_ports = 8000-8100\n");
  CHECK(p.decide(NetConnect{"example.com", "", 8080, ""}).allowed());
  CHECK_FALSE(p.decide(NetConnect{"example.com", "", 443, ""}).allowed());
  auto closed = engine("[profile]\ndescription = x\n");
  auto d = closed.decide(NetConnect{"example.com", "", 443, ""});
  CHECK(d.verdict == Verdict::deny);
  CHECK_FALSE(d.advisory);
  auto open = engine("[network]\nblock_all_others = false\n");
  CHECK(open.decide(NetConnect{"anything.net", "", 25, ""}).allowed());
  auto open_rules = engine("[network]\nblock_all_others = false\nallow_hosts = a.com\n");
  CHECK(open_rules.decide(NetConnect{"b.com", "", 25, ""}).allowed());
  auto warn = engine("[network]\nenforcement = warn\nallow_hosts = a.com\n");
  auto w = warn.decide(NetConnect{"b.com", "", 443, ""});
  CHECK(w.verdict == Verdict::deny);
  CHECK(w.advisory);
}

TEST_CASE("engine: a long allowlist decides each name by itself, first and last alike") {
  // (The speed of decide() is measured in tests/bench/policy.sh, not here.)
  std::string list = "[process]\nspawn_allowlist = ls";
  for (int i = 0; i < 1000; ++i) list += ",\n  tool" + std::to_string(i);
  auto e = engine(list + "\n");
  CHECK(e.profile().values.spawn_allowlist.value.size() == 1001);
  for (const char* in : {"ls", "tool0", "tool500", "tool999"}) CHECK(e.decide(Spawn{in, ""}).allowed());
  // near misses: a prefix, an extension, another case, a path with the name as its end
  for (const char* out : {"tool1000", "tool", "tool9999", "Tool1", "tool1 ", "l", "lsx"}) {
    auto d = e.decide(Spawn{out, ""});
    CHECK_MESSAGE(!d.allowed(), out);
    CHECK(d.decided_by.key == "process.spawn_allowlist");
  }
  // a decision does not change what the next one says
  CHECK_FALSE(e.decide(Spawn{"tool1000", ""}).allowed());
  CHECK(e.decide(Spawn{"tool999", ""}).allowed());
}

TEST_CASE("auto-detect: a profile with wider files or warn-only enforcement is not 'no wider'") {
  // Found by the outsider test: a suggestion went to a profile whose filesystem
  // rules were only warned about, from a session without profile_switch.
  auto active = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = ls\n"
                               "[filesystem]\nread_only = /usr\n", "active");
  auto same = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = ls\n"
                             "[filesystem]\nread_only = /usr\n", "same");
  auto warn = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = ls\n"
                             "[filesystem]\nread_only = /usr\nenforcement = warn\n", "warn");
  auto more = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = ls\n"
                             "[filesystem]\nread_only = /usr, /\n", "more");
  auto prog = test::resolved("[process]\nspawn_any = false\nspawn_allowlist = ls, curl\n"
                             "[filesystem]\nread_only = /usr\n", "prog");
  CHECK(lash::policy::no_wider(*same, *active));
  CHECK_FALSE(lash::policy::no_wider(*warn, *active));
  CHECK_FALSE(lash::policy::no_wider(*more, *active));
  CHECK_FALSE(lash::policy::no_wider(*prog, *active));
}

TEST_CASE("network: allow_loopback opens this host's loopback ports by address, nothing else") {
  auto e = engine("[network]\nallow_hosts = example.com\nallow_ports = 5432\nallow_loopback = 5432, 6000-6001\n");
  auto v4 = e.decide(NetConnect{"127.0.0.1", "127.0.0.1", 5432, ""});
  CHECK(v4.allowed());
  CHECK(v4.decided_by.key == "network.allow_loopback");
  CHECK(e.decide(NetConnect{"::1", "::1", 6001, ""}).allowed());
  CHECK(e.decide(NetConnect{"::ffff:127.0.0.1", "::ffff:127.0.0.1", 5432, ""}).allowed());
  // 0.0.0.0 and :: are what Linux connects to 127.0.0.1 / ::1: the same answer as those.
  CHECK(e.decide(NetConnect{"0.0.0.0", "0.0.0.0", 5432, ""}).allowed());
  CHECK(e.decide(NetConnect{"::", "::", 6000, ""}).allowed());
  CHECK(e.decide(NetConnect{"::ffff:0.0.0.0", "::ffff:0.0.0.0", 6000, ""}).allowed());
  CHECK(e.decide(NetConnect{"0.0.0.0", "0.0.0.0", 22, ""}).decided_by.key == "network.allow_loopback");
  CHECK_FALSE(e.decide(NetConnect{"0.0.0.0", "0.0.0.0", 22, ""}).allowed());
  // The rest of 127.0.0.0/8 is other services of this host: refused on every port,
  // naming allow_loopback, even where allow_hosts would let the address and port by.
  for (const char* ip : {"127.0.0.2", "127.3.4.5", "127.255.255.255", "::ffff:127.0.0.2", "127.0.0.53"}) {
    auto d = e.decide(NetConnect{ip, ip, 5432, ""});
    CHECK_FALSE(d.allowed());
    CHECK(d.decided_by.key == "network.allow_loopback");
    CHECK(d.problem.find(ip) != std::string::npos);
    CHECK(d.suggestion.find("only this host's 127.0.0.1 and ::1") != std::string::npos);
  }
  auto wide = engine("[network]\nallow_hosts = 127.0.0.0/8, 10.0.0.0/8\nallow_ports = 5432\n");
  CHECK_FALSE(wide.decide(NetConnect{"127.0.0.2", "127.0.0.2", 5432, ""}).allowed());
  CHECK_FALSE(wide.decide(NetConnect{"127.0.0.1", "127.0.0.1", 5432, ""}).allowed());
  CHECK(wide.decide(NetConnect{"10.0.0.1", "10.0.0.1", 5432, ""}).allowed());
  // Another port of loopback: refused, naming allow_loopback.
  auto other = e.decide(NetConnect{"127.0.0.1", "127.0.0.1", 22, ""});
  CHECK(other.verdict == Verdict::deny);
  CHECK(other.decided_by.key == "network.allow_loopback");
  // The same port elsewhere is not opened by it (allow_ports with a host is needed).
  CHECK_FALSE(e.decide(NetConnect{"10.0.0.1", "10.0.0.1", 6000, ""}).allowed());
  // A name is never loopback (the relay's DNS gives none; a probe has no address).
  CHECK_FALSE(e.decide(NetConnect{"localhost", "", 5432, ""}).allowed());
  // Without the key, loopback on an allowed port is still refused, by allow_loopback.
  auto none = engine("[network]\nallow_hosts = example.com\nallow_ports = 5432\n");
  auto d = none.decide(NetConnect{"127.0.0.1", "127.0.0.1", 5432, ""});
  CHECK(d.verdict == Verdict::deny);
  CHECK(d.decided_by.key == "network.allow_loopback");
  CHECK(d.suggestion.find("allow_loopback (none)") != std::string::npos);
}

TEST_CASE("network: a port in both allow_bind and allow_loopback of one file is an error") {
  auto bad = test::parse("[network]\nallow_bind = 8000-9000\nallow_loopback = 5432, 8888\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message().find(":3: allow_loopback: port 8888 is also in allow_bind (line 2)") !=
        std::string::npos);
  CHECK(test::parse("[network]\nallow_bind = 8000\nallow_loopback = 5432\n"));
}
