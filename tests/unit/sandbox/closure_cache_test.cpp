// The exec-closure cache against real files: an answer read back is the answer
// computed; any change to what it depended on, a cache written while a dependency
// was still changing, a cache of other programs, a damaged cache, and a cache
// directory or file others may write are all not used.
#include <doctest/doctest.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "base/state_cache.h"
#include "sandbox/closure_cache.h"

using namespace lash::sandbox;

namespace {

std::string real(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? buf : "";
}

int64_t now_ns() {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}
constexpr int64_t kLater = 60'000'000'000;  // "computed a minute from now": past the tick guard

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/lash-ccache-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    path = tmpl;
  }
  ~TempDir() { REQUIRE(system(("rm -rf '" + path + "'").c_str()) == 0); }
};

void write_file(const std::string& path, const std::string& text, mode_t mode = 0755) {
  std::ofstream(path) << text;
  REQUIRE(chmod(path.c_str(), mode) == 0);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool same(const ExecClosure& a, const ExecClosure& b) {
  auto files_equal = [](const std::vector<ExecFile>& x, const std::vector<ExecFile>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].path != y[i].path || x[i].role != y[i].role || x[i].needed_by != y[i].needed_by) return false;
    return true;
  };
  return files_equal(a.files, b.files) && files_equal(a.data_dirs, b.data_dirs) && a.problems == b.problems &&
         a.depends_on == b.depends_on;
}

}  // namespace

TEST_CASE("closure cache: the answer read back is the answer computed") {
  std::vector<std::string> progs = {real("/bin/true"), real("/bin/sh")};
  std::sort(progs.begin(), progs.end());
  ExecClosure c = resolve_exec_closure(progs);
  REQUIRE(c.files.size() > 2);
  REQUIRE(!c.depends_on.empty());
  auto text = closure_cache_text(progs, c, now_ns() + kLater);
  REQUIRE(text);
  auto back = closure_from_cache_text(*text, progs);
  REQUIRE(back);
  CHECK(same(*back, c));
  // Another list of programs (the file name's hash could collide) is not this answer.
  CHECK_FALSE(closure_from_cache_text(*text, {progs[0]}));
  CHECK_FALSE(closure_from_cache_text(*text, {progs[1], progs[0]}));
}

TEST_CASE("closure cache: a dependency that changed, appeared or went away recomputes") {
  TempDir d;
  std::string script = d.path + "/tool";
  write_file(script, "#!/bin/sh\necho hi\n");
  std::vector<std::string> progs = {script};
  ExecClosure c = resolve_exec_closure(progs);
  // The script changed a moment ago: a second change in the same clock tick would not
  // show in its timestamps, so the answer is not stored.
  CHECK_FALSE(closure_cache_text(progs, c, now_ns()));
  auto text = closure_cache_text(progs, c, now_ns() + kLater);
  REQUIRE(text);
  REQUIRE(closure_from_cache_text(*text, progs));

  SUBCASE("the program is rewritten") {
    write_file(script, "#!/bin/bash\necho hi\n");
    CHECK_FALSE(closure_from_cache_text(*text, progs));
  }
  SUBCASE("the program's mode changes") {
    REQUIRE(chmod(script.c_str(), 0700) == 0);
    CHECK_FALSE(closure_from_cache_text(*text, progs));
  }
  SUBCASE("a file appears in a directory it looked in") {
    usleep(50'000);  // past the clock tick of the directory's last change (see above)
    write_file(d.path + "/other", "x");
    CHECK_FALSE(closure_from_cache_text(*text, progs));
  }
  SUBCASE("the program is removed") {
    REQUIRE(unlink(script.c_str()) == 0);
    CHECK_FALSE(closure_from_cache_text(*text, progs));
  }
}

TEST_CASE("closure cache: a symlink on the way pointed elsewhere, or one that starts to resolve, recomputes") {
  TempDir d;
  // Each piece in its own directory, so that only the links' directories tell.
  for (const char* sub : {"/alt", "/alt/v1", "/alt/v2", "/bin", "/progs"})
    REQUIRE(mkdir((d.path + sub).c_str(), 0755) == 0);
  write_file(d.path + "/alt/v1/interp", "#!/bin/sh\n");
  write_file(d.path + "/alt/v2/interp", "#!/bin/sh\n");
  REQUIRE(symlink("v1", (d.path + "/alt/cur").c_str()) == 0);                   // a directory symlink
  REQUIRE(symlink("../alt/cur/interp", (d.path + "/bin/interp").c_str()) == 0);  // reached through it
  REQUIRE(symlink("../later/interp", (d.path + "/bin/pending").c_str()) == 0);   // dangling for now
  write_file(d.path + "/progs/tool", "#!" + d.path + "/bin/interp\n");
  write_file(d.path + "/progs/waiting", "#!" + d.path + "/bin/pending\n");
  std::vector<std::string> progs = {d.path + "/progs/tool", d.path + "/progs/waiting"};
  ExecClosure c = resolve_exec_closure(progs);
  REQUIRE(c.files.size() > 2);
  CHECK(c.files[1].path == d.path + "/alt/v1/interp");
  auto text = closure_cache_text(progs, c, now_ns() + kLater);
  REQUIRE(text);
  REQUIRE(closure_from_cache_text(*text, progs));
  usleep(50'000);  // past the clock tick of the tree's last change
  SUBCASE("the directory symlink is pointed at another version") {
    REQUIRE(symlink("v2", (d.path + "/alt/cur.new").c_str()) == 0);
    REQUIRE(rename((d.path + "/alt/cur.new").c_str(), (d.path + "/alt/cur").c_str()) == 0);
  }
  SUBCASE("a dangling interpreter link starts to resolve") {
    REQUIRE(mkdir((d.path + "/later").c_str(), 0755) == 0);
    write_file(d.path + "/later/interp", "#!/bin/sh\n");
  }
  CHECK_FALSE(closure_from_cache_text(*text, progs));
}

TEST_CASE("closure cache: an answer found with other groups is not used") {
  std::vector<std::string> progs = {real("/bin/true")};
  auto text = closure_cache_text(progs, resolve_exec_closure(progs), now_ns() + kLater);
  REQUIRE(text);
  REQUIRE(closure_from_cache_text(*text, progs));
  if (geteuid() != 0) return;  // setgroups needs root; the key is checked above for this user
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // A directory readable by group 4242 only would look absent without it: such an
    // answer must not serve a process with other groups.
    gid_t g = 4242;
    if (setgroups(1, &g) != 0) _exit(2);
    _exit(closure_from_cache_text(*text, progs) ? 1 : 0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("closure cache: a damaged cache is not used, and never crashes") {
  std::vector<std::string> progs = {real("/bin/true")};
  ExecClosure c = resolve_exec_closure(progs);
  auto text = closure_cache_text(progs, c, now_ns() + kLater);
  REQUIRE(text);
  // Every truncation: the last line must be "end".
  for (size_t n = 0; n < text->size(); ++n) CHECK_FALSE(closure_from_cache_text(text->substr(0, n), progs));
  // Every byte replaced by a tab, a newline or a letter: either refused or (where it
  // only renames a needed_by or a problem) an answer; never a crash.
  for (size_t i = 0; i < text->size(); ++i)
    for (char ch : {'\t', '\n', 'x', '\0'}) {
      std::string bad = *text;
      bad[i] = ch;
      (void)closure_from_cache_text(bad, progs);
    }
  CHECK_FALSE(closure_from_cache_text(*text + "F\tl\t/etc/shadow\t\n", progs));  // after "end"
  std::string no_deps;
  for (size_t start = 0; start < text->size();) {
    size_t nl = text->find('\n', start);
    std::string line = text->substr(start, nl + 1 - start);
    if (line.rfind("W\t", 0) != 0) no_deps += line;
    start = nl + 1;
  }
  CHECK_FALSE(closure_from_cache_text(no_deps, progs));  // nothing to check it against
}

TEST_CASE("closure cache: kept in a directory only this user may write") {
  TempDir d;
  std::string dir = d.path + "/cache";
  std::vector<std::string> progs = {real("/bin/true")};
  ExecClosure fresh = resolve_exec_closure(progs);
  std::string file = closure_cache_file(dir, progs);

  ExecClosure first = cached_exec_closure(dir, progs);  // computes, makes DIR, stores
  CHECK(same(first, fresh));
  struct stat st;
  if (stat(file.c_str(), &st) != 0) {
    // Not stored: a library directory changed within the last 2 s (a package being
    // installed); the next try is past that.
    usleep(2'100'000);
    fresh = resolve_exec_closure(progs);
    CHECK(same(cached_exec_closure(dir, progs), fresh));
  }
  REQUIRE(stat(dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(same(cached_exec_closure(dir, progs), fresh));  // read back

  SUBCASE("a valid cache file is what is used, not computed again") {
    // The same answer with a marker problem: had the closure been computed afresh,
    // the marker would not be there.
    std::string text = read_file(file);
    size_t end = text.rfind("end\n");
    write_file(file, text.substr(0, end) + "X\tmarker: read from the cache\nend\n", 0600);
    ExecClosure c = cached_exec_closure(dir, progs);
    REQUIRE(!c.problems.empty());
    CHECK(c.problems.back() == "marker: read from the cache");
  }
  SUBCASE("a cache file others may write is replaced, not read") {
    std::string text = read_file(file);
    // The same answer with one more "library": read, it would grant that file.
    size_t end = text.rfind("end\n");
    write_file(file, text.substr(0, end) + "F\tl\t/etc/shadow\t" + progs[0] + "\nend\n", 0666);
    ExecClosure c = cached_exec_closure(dir, progs);
    CHECK(same(c, fresh));
    REQUIRE(stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(read_file(file).find("/etc/shadow") == std::string::npos);
  }
  SUBCASE("a cache file with a second name is not read") {
    // The other name could be inside a writable grant, where a program rewrites it.
    std::string other = d.path + "/notes";
    REQUIRE(link(file.c_str(), other.c_str()) == 0);
    std::string text = read_file(file);
    size_t end = text.rfind("end\n");
    std::ofstream(other, std::ios::trunc) << text.substr(0, end) + "F\tl\t/etc/shadow\t" + progs[0] + "\nend\n";
    ExecClosure c = cached_exec_closure(dir, progs);
    CHECK(same(c, fresh));
    CHECK(read_file(file).find("/etc/shadow") == std::string::npos);  // replaced under its own name
    REQUIRE(stat(file.c_str(), &st) == 0);
    CHECK(st.st_nlink == 1);
  }
  SUBCASE("a directory others may write is neither read nor written") {
    REQUIRE(unlink(file.c_str()) == 0);
    REQUIRE(chmod(dir.c_str(), 0777) == 0);
    CHECK(same(cached_exec_closure(dir, progs), fresh));
    CHECK(stat(file.c_str(), &st) != 0);
  }
  SUBCASE("no directory: computed every time") {
    CHECK(same(cached_exec_closure("", progs), fresh));
  }
}

TEST_CASE("state cache: the cache directory keeps the 64 files written last") {
  TempDir d;
  std::string dir = d.path + "/cache";
  for (int i = 0; i < 70; ++i) {
    lash::state_cache::write_file(dir, "answer-" + std::to_string(i), "x\n");
    struct timespec times[2] = {{1'000'000 + i, 0}, {1'000'000 + i, 0}};  // distinct mtimes, in order
    REQUIRE(utimensat(AT_FDCWD, (dir + "/answer-" + std::to_string(i)).c_str(), times, 0) == 0);
  }
  int kept = 0;
  struct stat st;
  for (int i = 0; i < 70; ++i) kept += stat((dir + "/answer-" + std::to_string(i)).c_str(), &st) == 0;
  CHECK(kept == 64);
  CHECK(stat((dir + "/answer-5").c_str(), &st) != 0);   // among the oldest: removed
  CHECK(stat((dir + "/answer-69").c_str(), &st) == 0);  // the last written
  CHECK(lash::state_cache::read_file(dir, "answer-69") == std::string("x\n"));
}
