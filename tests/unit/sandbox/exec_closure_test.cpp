// The exec closure against real files on this machine: a dynamic program, a script,
// and malformed files (truncated, garbage, oversized offsets) that must be reported,
// never crash.
#include <doctest/doctest.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "sandbox/exec_closure.h"

using namespace lash::sandbox;

namespace {

std::string real(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? buf : "";
}

const ExecFile* find_suffix(const ExecClosure& c, const std::string& suffix) {
  for (const auto& f : c.files)
    if (f.path.size() >= suffix.size() && f.path.compare(f.path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &f;
  return nullptr;
}

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& content) {
    char tmpl[] = "/tmp/lash-closure-XXXXXX";
    int fd = mkstemp(tmpl);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
    close(fd);
    path = tmpl;
  }
  ~TempFile() { unlink(path.c_str()); }
};

}  // namespace

TEST_CASE("exec closure: a dynamic program brings its interpreter and libc") {
  std::string t = real("/bin/true");
  REQUIRE(!t.empty());
  auto c = resolve_exec_closure({t});
  REQUIRE(!c.files.empty());
  CHECK(c.files[0].path == t);
  CHECK(c.files[0].role == ExecFile::Role::program);
  const ExecFile* ld = find_suffix(c, "ld-linux-x86-64.so.2");
  REQUIRE(ld);
  CHECK(ld->role == ExecFile::Role::interpreter);
  const ExecFile* libc = find_suffix(c, "libc.so.6");
  REQUIRE(libc);
  CHECK(libc->role == ExecFile::Role::library);
  CHECK(c.problems.empty());
}

TEST_CASE("exec closure: a script brings its #! interpreter and that one's closure") {
  TempFile script("#!/bin/sh -e\necho hi\n");
  auto c = resolve_exec_closure({script.path});
  const ExecFile* sh = nullptr;
  for (const auto& f : c.files)
    if (f.path == real("/bin/sh")) sh = &f;
  REQUIRE(sh);
  CHECK(sh->role == ExecFile::Role::interpreter);
  CHECK(find_suffix(c, "libc.so.6") != nullptr);
}

TEST_CASE("exec closure: malformed files are problems, not crashes") {
  TempFile garbage(std::string(100, 'x'));
  TempFile truncated_elf(std::string("\x7f" "ELF\x02\x01\x01", 7));
  std::string bad_ph("\x7f" "ELF\x02\x01\x01", 7);
  bad_ph.resize(64, '\0');
  bad_ph[54] = 56;                         // e_phentsize
  bad_ph[56] = static_cast<char>(0xff);    // e_phnum
  bad_ph[32] = static_cast<char>(0xf0);    // e_phoff far beyond the file
  bad_ph[39] = 0x7f;
  TempFile bad(bad_ph);
  auto c = resolve_exec_closure({garbage.path, truncated_elf.path, bad.path, "/nonexistent/prog"});
  CHECK(c.problems.size() == 4);
  CHECK(std::any_of(c.problems.begin(), c.problems.end(),
                    [](const std::string& p) { return p.find("not found") != std::string::npos; }));
}

TEST_CASE("exec closure: runtime directories are listed for interpreters like python") {
  std::string py = real("/usr/bin/python3");
  if (py.empty()) return;
  auto c = resolve_exec_closure({py});
  bool stdlib = std::any_of(c.data_dirs.begin(), c.data_dirs.end(), [&](const ExecFile& d) {
    return d.path.rfind("/usr/lib/python3", 0) == 0;
  });
  CHECK(stdlib);
}

TEST_CASE("list_except: secrets are left out, listed directories split") {
  auto etc = list_except("/etc", {"shadow", "gshadow"}, {"ssh"});
  CHECK(std::find(etc.begin(), etc.end(), "/etc/passwd") != etc.end());
  CHECK(std::find(etc.begin(), etc.end(), "/etc/shadow") == etc.end());
  CHECK(std::find(etc.begin(), etc.end(), "/etc/ssh") == etc.end());
}

TEST_CASE("exec closure: symlink chains resolve like realpath, loops and dangling links are reported") {
  char tmpl[] = "/tmp/lash-closure-links-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  std::string dir = real(tmpl);
  std::string t = real("/bin/true");
  {
    std::ifstream in(t, std::ios::binary);
    std::ofstream out(dir + "/copy", std::ios::binary);
    out << in.rdbuf();
  }
  REQUIRE(chmod((dir + "/copy").c_str(), 0755) == 0);
  // Same-directory hops (the leaf is followed in place), then one to another directory.
  REQUIRE(symlink("copy", (dir + "/b").c_str()) == 0);
  REQUIRE(symlink("b", (dir + "/a").c_str()) == 0);
  REQUIRE(symlink(t.c_str(), (dir + "/far").c_str()) == 0);
  REQUIRE(symlink("far", (dir + "/near").c_str()) == 0);
  REQUIRE(mkdir((dir + "/sub").c_str(), 0755) == 0);  // a relative target through another directory
  REQUIRE(symlink("../b", (dir + "/sub/up").c_str()) == 0);
  REQUIRE(symlink("loop2", (dir + "/loop1").c_str()) == 0);
  REQUIRE(symlink("loop1", (dir + "/loop2").c_str()) == 0);
  REQUIRE(symlink("missing", (dir + "/dangling").c_str()) == 0);

  auto c = resolve_exec_closure({dir + "/a", dir + "/near", dir + "/sub/up", dir + "/loop1", dir + "/dangling"});
  std::vector<std::string> programs;
  for (const auto& f : c.files)
    if (f.role == ExecFile::Role::program) programs.push_back(f.path);
  CHECK(std::find(programs.begin(), programs.end(), dir + "/copy") != programs.end());
  CHECK(std::find(programs.begin(), programs.end(), t) != programs.end());
  CHECK(programs.size() == 2);
  auto reported = [&](const std::string& what) {
    return std::any_of(c.problems.begin(), c.problems.end(),
                       [&](const std::string& p) { return p.rfind(dir + "/" + what + ":", 0) == 0; });
  };
  CHECK(reported("loop1"));
  CHECK(reported("dangling"));
  for (const char* n : {"a", "b", "copy", "far", "near", "sub/up", "loop1", "loop2", "dangling"}) unlink((dir + "/" + n).c_str());
  rmdir((dir + "/sub").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("exec closure: a RUNPATH longer than a page still finds the library at its end") {
  if (system("command -v cc >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: no C compiler to build the test binary");
    return;
  }
  char tmpl[] = "/tmp/lash-closure-runpath-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  std::string dir = real(tmpl);
  {
    std::ofstream lib(dir + "/foo.c");
    lib << "int foo(void) { return 0; }\n";
    std::ofstream prog(dir + "/main.c");
    prog << "int foo(void);\nint main(void) { return foo(); }\n";
  }
  std::string runpath;
  while (runpath.size() < 4700) runpath += "/nonexistent/lash-closure-padding-directory:";
  runpath += dir;
  std::string build = "cd '" + dir + "' && cc -shared -fPIC -o libfoo.so foo.c && cc -o prog main.c -L. -lfoo "
                      "-Wl,--enable-new-dtags -Wl,-rpath," + runpath + " 2>/dev/null";
  REQUIRE(system(build.c_str()) == 0);
  auto c = resolve_exec_closure({dir + "/prog"});
  CHECK(find_suffix(c, "/libfoo.so"));
  CHECK(std::none_of(c.problems.begin(), c.problems.end(),
                     [](const std::string& p) { return p.find("libfoo.so") != std::string::npos; }));
  (void)!system(("rm -rf '" + dir + "'").c_str());
}

TEST_CASE("exec closure: with no fd to spare for directories it still resolves by name") {
  std::string t = real("/bin/true");
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // Room for one file at a time, none for the cached directory fds.
    int top = open("/dev/null", O_RDONLY);
    struct rlimit lim {static_cast<rlim_t>(top + 1), static_cast<rlim_t>(top + 1)};
    close(top);
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) _exit(3);
    auto c = resolve_exec_closure({t});
    bool ok = c.problems.empty() && find_suffix(c, "libc.so.6") && find_suffix(c, "ld-linux-x86-64.so.2");
    _exit(ok ? 0 : 1);
  }
  int ws = 0;
  REQUIRE(waitpid(pid, &ws, 0) == pid);
  CHECK(WIFEXITED(ws));
  CHECK(WEXITSTATUS(ws) == 0);
}
