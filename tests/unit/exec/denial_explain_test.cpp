// src/exec/denial_explain.cpp (--explain-denials): which names a refusal message
// holds, which rights a plan grants on a path, and which key the explanation names,
// with a fake filesystem so each case says exactly what exists.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "exec/denial_explain.h"
#include "policy/engine.h"
#include "policy/resolver.h"
#include "policy/store.h"

using namespace lash;

namespace {
std::shared_ptr<const policy::ResolvedProfile> profile_of(const std::string& name) {
  policy::MemoryStore s;
  auto p = policy::load_resolved(s, name, policy::ResolveOptions{false, true});
  REQUIRE(p);
  return *p;
}

// The ci-like session of these cases: workspace /w (rwx as exec path or rw- as in
// ci-strict), /usr/bin/cc executable, /etc readable, /root/.ssh nowhere.
sandbox::SandboxPlan plan_with(unsigned workspace_rights) {
  namespace r = sandbox::rights;
  sandbox::SandboxPlan p;
  p.restrict_fs = true;
  p.paths.push_back({"/w", workspace_rights, false, "workdir", ""});
  p.paths.push_back({"/etc", r::read, false, "baseline", ""});
  p.paths.push_back({"/usr/bin/cc", r::read | r::execute, true, "spawn_allowlist", ""});
  p.protect.push_back("/w/.git/hooks");
  return p;
}

exec::FileProbe fake_fs(std::map<std::string, char> files) {
  exec::FileProbe p;
  p.realpath = [files](const std::string& path) { return files.count(path) ? path : std::string(); };
  p.kind = [files](const std::string& path) -> char {
    auto it = files.find(path);
    return it == files.end() ? 0 : it->second;
  };
  p.find_program = [files](const std::string& name) {
    std::string c = "/usr/bin/" + name;
    return files.count(c) ? c : std::string();
  };
  return p;
}

policy::SessionFacts facts_with_workspace() {
  policy::SessionFacts f;
  f.writable_roots.push_back({"/w", "filesystem.include_workdir"});
  return f;
}
}  // namespace

TEST_CASE("explain-denials: which lines report a refusal") {
  CHECK(exec::reports_refusal("make: ./t: Permission denied"));
  CHECK(exec::reports_refusal("mkdir: cannot create directory '/x': Read-only file system"));
  CHECK(exec::reports_refusal("rm: cannot remove '/x': Operation not permitted"));
  CHECK_FALSE(exec::reports_refusal("make: *** [Makefile:3: all] Error 1"));
  CHECK_FALSE(exec::reports_refusal("permission granted"));
}

TEST_CASE("explain-denials: the names a message holds, not the program that speaks") {
  using V = std::vector<std::string>;
  CHECK(exec::names_in("make: ./t: Permission denied") == V{"./t"});
  CHECK(exec::names_in("sh: 1: ./c.sh: Permission denied") == V{"./c.sh"});
  CHECK(exec::names_in("sh: 1: curl: Permission denied") == V{"curl"});  // dash names the command bare
  CHECK(exec::names_in("cp: cannot open '/usr/bin/curl' for reading: Permission denied") == V{"/usr/bin/curl"});
  CHECK(exec::names_in("/usr/bin/ld: cannot open output file /out/prog: Permission denied") == V{"/out/prog"});
  CHECK(exec::names_in("PermissionError: [Errno 13] Permission denied: '/root/.ssh/id_rsa'") ==
        V{"/root/.ssh/id_rsa"});
  // A quoted name without a slash is a command only right before ": <refusal>".
  CHECK(exec::names_in("/usr/bin/env: \xe2\x80\x98" "curl\xe2\x80\x99: Permission denied") == V{"curl"});
  CHECK(exec::names_in("error: 'foo' said: Permission denied").empty());
  CHECK(exec::names_in("cat: ~/.ssh/config: Permission denied") == V{"~/.ssh/config"});
  // Two fields only: the first one is what was refused.
  CHECK(exec::names_in("/etc/shadow: Permission denied") == V{"/etc/shadow"});
}

TEST_CASE("explain-denials: rights a plan grants, as Landlock unites them") {
  namespace r = sandbox::rights;
  auto plan = plan_with(r::read | r::write | r::execute);
  CHECK(exec::granted_rights(plan, "/w/t") == (r::read | r::write | r::execute));
  CHECK(exec::granted_rights(plan, "/w/.git/hooks/pre-commit") == (r::read | r::execute));
  CHECK(exec::granted_rights(plan, "/usr/bin/cc") == (r::read | r::execute));
  CHECK(exec::granted_rights(plan, "/usr/bin/curl") == 0);  // a file rule is not a directory
  CHECK(exec::granted_rights(plan, "/wx/t") == 0);          // a prefix is not a parent
  sandbox::SandboxPlan open;
  CHECK(exec::granted_rights(open, "/anything") == (r::read | r::write | r::execute));
}

TEST_CASE("explain-denials: execute in the workspace names exec_paths; its twin with exec is not explained") {
  namespace r = sandbox::rights;
  policy::Engine engine(profile_of("ci-strict"), facts_with_workspace());
  policy::SessionEnv env{"/usr/bin", "/w", "/root", ""};
  auto fs = fake_fs({{"/w/t", 'x'}, {"/w", 'd'}});
  auto ex = exec::explain_lines({"make: ./t: Permission denied"}, engine, plan_with(r::read | r::write), env, fs);
  REQUIRE(ex.size() == 1);
  CHECK(ex[0].path == "/w/t");
  CHECK(ex[0].right == "execute");
  CHECK(ex[0].key.key == "process.exec_paths");
  CHECK(ex[0].change == "add /w to [process] exec_paths");
  // Under a plan that lets the workspace execute, the same line is not this profile's doing.
  CHECK(exec::explain_lines({"make: ./t: Permission denied"}, engine, plan_with(r::read | r::write | r::execute), env,
                            fs)
            .empty());
}

TEST_CASE("explain-denials: a system program outside the allowlist names spawn_allowlist with its file:line") {
  namespace r = sandbox::rights;
  policy::Engine engine(profile_of("ci"), facts_with_workspace());
  policy::SessionEnv env{"/usr/bin", "/w", "/root", ""};
  auto fs = fake_fs({{"/usr/bin/curl", 'x'}, {"/usr/bin/cc", 'x'}});
  auto ex = exec::explain_lines({"/usr/bin/env: 'curl': Permission denied", "/usr/bin/env: 'cc': Permission denied"},
                                engine, plan_with(r::read | r::write | r::execute), env, fs);
  REQUIRE(ex.size() == 1);  // cc is granted: not explained
  CHECK(ex[0].path == "/usr/bin/curl");
  CHECK(ex[0].right == "execute");
  CHECK(ex[0].key.key == "process.spawn_allowlist");
  CHECK(ex[0].key.source_text() != "base");  // ci.profile sets it: file and line
}

TEST_CASE("explain-denials: reads and writes outside the grants; a protected path") {
  namespace r = sandbox::rights;
  policy::Engine engine(profile_of("ci"), facts_with_workspace());
  policy::SessionEnv env{"/usr/bin", "/w", "/root", ""};
  auto fs = fake_fs({{"/root/.ssh/id_rsa", 'f'}, {"/etc/passwd", 'f'}, {"/w/.git/hooks", 'd'}});
  auto plan = plan_with(r::read | r::write | r::execute);
  auto ex = exec::explain_lines({"cat: /root/.ssh/id_rsa: Permission denied",
                                 "sh: 1: cannot create /opt/out.txt: Permission denied",
                                 "sh: 1: cannot create /w/.git/hooks/pre-commit: Read-only file system",
                                 "cat: /etc/passwd: Permission denied"},
                                engine, plan, env, fs);
  REQUIRE(ex.size() == 3);  // /etc/passwd is readable: its refusal came from elsewhere
  CHECK(ex[0].right == "read");
  CHECK(ex[0].key.key == "filesystem.read_only");
  CHECK(ex[1].path == "/opt/out.txt");
  CHECK(ex[1].right == "write");
  CHECK(ex[1].key.key == "filesystem.read_write");
  CHECK(ex[1].change == "add /opt to [filesystem] read_write");
  CHECK(ex[2].right == "write");
  CHECK(ex[2].key.key == "filesystem.protect");
  std::string text = exec::summary_text(ex, 4, false);
  CHECK(text.find("4 lines of error output reported a refusal; 3 explained") != std::string::npos);
  CHECK(text.find("read /root/.ssh/id_rsa: filesystem.read_only [") != std::string::npos);
  CHECK(exec::summary_text({}, 0, false).find("no program of this session reported a refusal") != std::string::npos);
}
