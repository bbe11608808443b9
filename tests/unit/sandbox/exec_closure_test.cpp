// The exec closure against real files on this machine: a dynamic program, a script,
// and malformed files (truncated, garbage, oversized offsets) that must be reported,
// never crash.
#include <doctest/doctest.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
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
