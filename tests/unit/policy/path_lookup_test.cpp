// The system probe's PATH lookup against real directories: a small directory is
// listed once, so these check that listing never changes what a lookup finds.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "policy/session_facts.h"

using namespace lash::policy;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/lash-pathlookup-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    char buf[PATH_MAX];
    REQUIRE(realpath(tmpl, buf));
    path = buf;
  }
  ~TempDir() { (void)!system(("rm -rf '" + path + "'").c_str()); }
  std::string make(const std::string& name, mode_t mode) const {
    std::string p = path + "/" + name;
    int fd = open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    REQUIRE(fd >= 0);
    close(fd);
    REQUIRE(chmod(p.c_str(), mode) == 0);
    return p;
  }
};

}  // namespace

TEST_CASE("PATH lookup: first executable regular file wins, listed or not") {
  TempDir small, later;
  small.make("tool", 0644);                      // not executable: skipped
  REQUIRE(mkdir((small.path + "/adir").c_str(), 0755) == 0);  // a directory: skipped
  std::string found = later.make("tool", 0755);
  later.make("adir", 0755);
  std::string first = small.make("first", 0755);
  later.make("first", 0755);
  FsProbe fs = FsProbe::system();
  std::string path_var = small.path + ":" + later.path;
  CHECK(resolve_on_path("tool", path_var, fs) == found);
  CHECK(resolve_on_path("adir", path_var, fs) == later.path + "/adir");
  CHECK(resolve_on_path("first", path_var, fs) == first);
  CHECK(!resolve_on_path("absent", path_var, fs));
  // A large directory is not listed; the answer is the same.
  TempDir big;
  // Over 16 KiB on ext4 (about 44 bytes an entry) and on tmpfs (20 bytes an entry).
  for (int i = 0; i < 1000; ++i) big.make("filler-with-a-rather-long-name-" + std::to_string(i), 0644);
  struct stat big_st;
  REQUIRE(stat(big.path.c_str(), &big_st) == 0);
  REQUIRE(big_st.st_size > 16 * 1024);
  std::string in_big = big.make("tool", 0755);
  FsProbe fresh = FsProbe::system();
  CHECK(resolve_on_path("tool", big.path + ":" + later.path, fresh) == in_big);
  CHECK(!resolve_on_path("absent", big.path, fresh));
}

TEST_CASE("PATH lookup: a symlinked program resolves to its real path; missing directories are skipped") {
  TempDir d;
  std::string target = d.make("real-tool", 0755);
  REQUIRE(symlink("real-tool", (d.path + "/tool").c_str()) == 0);
  FsProbe fs = FsProbe::system();
  CHECK(resolve_on_path("tool", "/nonexistent-lash-dir:" + d.path, fs) == target);
}

TEST_CASE("PATH lookup: a search-only directory is still searched (its listing fails)") {
  TempDir xonly, later;
  std::string first = xonly.make("tool", 0755);
  later.make("tool", 0755);
  REQUIRE(chmod(later.path.c_str(), 0755) == 0);
  // Root reads any directory, so the check runs as another user: nobody.
  bool as_root = geteuid() == 0;
  REQUIRE(chmod(xonly.path.c_str(), as_root ? 0711 : 0311) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (as_root && (setgroups(0, nullptr) != 0 || setresgid(65534, 65534, 65534) != 0 ||
                    setresuid(65534, 65534, 65534) != 0))
      _exit(3);
    FsProbe fs = FsProbe::system();
    auto got = resolve_on_path("tool", xonly.path + ":" + later.path, fs);
    _exit(got && *got == first ? 0 : 1);
  }
  int ws = 0;
  REQUIRE(waitpid(pid, &ws, 0) == pid);
  CHECK(WIFEXITED(ws));
  CHECK(WEXITSTATUS(ws) == 0);
  REQUIRE(chmod(xonly.path.c_str(), 0700) == 0);
}

TEST_CASE("session facts record what each writable grant resolved to (device, inode)") {
  TempDir work;
  ResolvedProfile rp;
  rp.values.read_write.value = {work.path, work.path + "/missing"};
  SessionEnv env;
  env.start_dir = work.path;
  env.home = work.path;
  SessionFacts f = make_session_facts(rp, env, FsProbe::system());
  struct stat st;
  REQUIRE(stat(work.path.c_str(), &st) == 0);
  REQUIRE(f.writable_roots.size() == 2);
  CHECK(f.writable_roots[0].dev == static_cast<uint64_t>(st.st_dev));
  CHECK(f.writable_roots[0].ino == static_cast<uint64_t>(st.st_ino));
  CHECK(f.writable_roots[1].ino == 0);  // missing: nothing to check against
}
