// Unit tests of builtins/test_eval. test_dash_cases.inc holds dash's real status
// and message for each argument list (see its header); file operators are checked
// against a scratch directory built here.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "exec/test_eval.h"

using lash::builtins::test_eval;

namespace {

struct DashTestCase {
  std::vector<std::string> args;
  int status;
  const char* error;
};

#include "test_dash_cases.inc"

int st(std::vector<std::string> args) {
  auto r = test_eval(args);
  if (r.status == 2) CHECK_FALSE(r.error.empty());
  return r.status;
}

std::string err(std::vector<std::string> args) {
  auto r = test_eval(args);
  CHECK(r.status == 2);
  return r.error;
}

struct ScratchDir {
  std::string path;
  ScratchDir() {
    char tmpl[] = "/tmp/lash-test-eval-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~ScratchDir() {
    std::string cmd = "rm -rf '" + path + "'";
    if (std::system(cmd.c_str()) != 0) MESSAGE("could not remove " << path);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  void write(const std::string& name, const std::string& content, mode_t mode = 0644) const {
    int fd = open((*this / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
    close(fd);
    REQUIRE(chmod((*this / name).c_str(), mode) == 0);
  }
};

void set_mtime(const std::string& path, time_t sec, long nsec) {
  struct timespec ts[2] = {{sec, nsec}, {sec, nsec}};
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), ts, 0) == 0);
}

}  // namespace

TEST_SUITE("test") {

TEST_CASE("like dash: status and message") {
  for (const auto& c : kDashTestCases) {
    auto r = test_eval(c.args);
    std::string what;
    for (auto& a : c.args) what += "[" + a + "] ";
    INFO(what);
    CHECK(r.status == c.status);
    if (c.status == 2) CHECK(r.error == c.error);
  }
}

TEST_CASE("POSIX argument counts") {
  CHECK(st({}) == 1);
  CHECK(st({""}) == 1);
  CHECK(st({"x"}) == 0);
  CHECK(st({"-z"}) == 0);          // one argument: a non-empty string
  CHECK(st({"!", "x"}) == 1);
  CHECK(st({"-n", ""}) == 1);
  CHECK(st({"=", "=", "="}) == 0);  // three: the middle binary operator wins
  CHECK(st({"!", "=", "x"}) == 1);
  CHECK(st({"(", "", ")"}) == 1);
  CHECK(st({"!", "a", "=", "a"}) == 1);  // four: leading ! negates the rest
  CHECK(st({"(", "-z", "x", ")"}) == 1);
}

TEST_CASE("precedence: ! binds tighter than -a, -a than -o") {
  CHECK(st({"", "-a", "x", "-o", "x"}) == 0);   // ("" -a x) -o x
  CHECK(st({"x", "-o", "x", "-a", ""}) == 0);   // x -o (x -a "")
  CHECK(st({"!", "", "-a", "x"}) == 0);         // (! "") -a x
  CHECK(st({"(", "x", "-o", "x", ")", "-a", ""}) == 1);
  CHECK(st({"!", "(", "x", "-o", "", ")"}) == 1);
}

TEST_CASE("integers") {
  CHECK(st({"299999", "-lt", "300000"}) == 0);
  CHECK(st({"300000", "-lt", "300000"}) == 1);
  CHECK(st({" -3 ", "-lt", "+2"}) == 0);
  CHECK(st({"010", "-eq", "10"}) == 0);  // decimal only
  CHECK(err({"abc", "-lt", "1"}) == "Illegal number: abc");
  CHECK(err({"1", "-lt", "2x"}) == "Illegal number: 2x");
  CHECK(err({"", "-eq", "0"}) == "Illegal number: ");
  CHECK(err({"0x10", "-eq", "16"}) == "Illegal number: 0x10");
  CHECK(err({"9223372036854775808", "-gt", "0"}) == "Illegal number: 9223372036854775808");
  CHECK(st({"-9223372036854775808", "-lt", "9223372036854775807"}) == 0);
}

TEST_CASE("strings compare as bytes") {
  CHECK(st({"a", "<", "b"}) == 0);
  CHECK(st({"B", "<", "a"}) == 0);
  CHECK(st({"\xc3\xa9", ">", "z"}) == 0);
  CHECK(st({"abc", "=", "abc"}) == 0);
  CHECK(st({"abc", "!=", "abd"}) == 0);
}

TEST_CASE("syntax errors") {
  CHECK(err({"a", "b"}) == "a: unexpected operator");
  CHECK(err({"(", "a"}) == "closing paren expected");
  CHECK(err({"1", "-eq"}) == "-eq: argument expected");
  CHECK(err({"a", "==", "a"}) == "a: unexpected operator");
  CHECK(err({"-t", "x"}) == "Illegal number: x");
}

TEST_CASE("deep nesting is bounded") {
  std::vector<std::string> args(100000, "!");
  args.push_back("x");
  auto r = test_eval(args);
  CHECK(r.status == 2);
  std::vector<std::string> parens;
  for (int i = 0; i < 50; ++i) parens.push_back("(");
  parens.push_back("x");
  for (int i = 0; i < 50; ++i) parens.push_back(")");
  CHECK(st(parens) == 0);
}

TEST_CASE("file operators") {
  ScratchDir d;
  d.write("empty", "");
  d.write("data", "hello");
  d.write("exe", "#!/bin/sh\n", 0755);
  d.write("setuid", "x", 04755);
  d.write("setgid", "x", 02755);
  REQUIRE(mkdir((d / "dir").c_str(), 0755) == 0);
  REQUIRE(mkdir((d / "sticky").c_str(), 01777) == 0);
  REQUIRE(chmod((d / "sticky").c_str(), 01777) == 0);
  REQUIRE(symlink("data", (d / "link").c_str()) == 0);
  REQUIRE(symlink("nowhere", (d / "dangling").c_str()) == 0);
  REQUIRE(mkfifo((d / "fifo").c_str(), 0644) == 0);
  int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(sock >= 0);
  struct sockaddr_un sa {};
  sa.sun_family = AF_UNIX;
  const std::string sp = d / "sock";
  REQUIRE(sp.size() < sizeof sa.sun_path);
  std::copy(sp.begin(), sp.end(), sa.sun_path);
  REQUIRE(bind(sock, reinterpret_cast<struct sockaddr*>(&sa), sizeof sa) == 0);

  const std::string missing = d / "missing";
  CHECK(st({"-e", d / "data"}) == 0);
  CHECK(st({"-e", missing}) == 1);
  CHECK(st({"-e", ""}) == 1);
  CHECK(st({"-e", d / "dangling"}) == 1);
  CHECK(st({"-f", d / "data"}) == 0);
  CHECK(st({"-f", d / "link"}) == 0);   // follows the link
  CHECK(st({"-f", d / "dir"}) == 1);
  CHECK(st({"-d", d / "dir"}) == 0);
  CHECK(st({"-d", d / "data"}) == 1);
  CHECK(st({"-h", d / "link"}) == 0);
  CHECK(st({"-L", d / "dangling"}) == 0);
  CHECK(st({"-L", d / "data"}) == 1);
  CHECK(st({"-p", d / "fifo"}) == 0);
  CHECK(st({"-p", d / "data"}) == 1);
  CHECK(st({"-S", sp}) == 0);
  CHECK(st({"-S", d / "data"}) == 1);
  CHECK(st({"-c", "/dev/null"}) == 0);
  CHECK(st({"-b", "/dev/null"}) == 1);
  CHECK(st({"-s", d / "data"}) == 0);
  CHECK(st({"-s", d / "empty"}) == 1);
  CHECK(st({"-u", d / "setuid"}) == 0);
  CHECK(st({"-u", d / "data"}) == 1);
  CHECK(st({"-g", d / "setgid"}) == 0);
  CHECK(st({"-g", d / "data"}) == 1);
  CHECK(st({"-k", d / "sticky"}) == 0);
  CHECK(st({"-k", d / "dir"}) == 1);
  CHECK(st({"-O", d / "data"}) == 0);
  CHECK(st({"-G", d / "data"}) == 0);
  CHECK(st({"-O", missing}) == 1);
  CHECK(st({"-x", d / "exe"}) == 0);
  CHECK(st({"-x", d / "data"}) == 1);   // no x bit at all: false even for root
  CHECK(st({"-x", d / "dir"}) == 0);
  CHECK(st({"-r", d / "data"}) == 0);
  CHECK(st({"-w", d / "data"}) == 0);
  CHECK(st({"-r", missing}) == 1);
  CHECK(st({"!", "-e", missing}) == 0);
  CHECK(st({"-e", d / "data", "-a", "-d", d / "dir"}) == 0);
  CHECK(st({"-e", missing, "-o", "-d", d / "dir"}) == 0);
  CHECK(st({"-t", "99"}) == 1);

  // -nt / -ot compare nanoseconds and need both files; -ef compares inodes.
  set_mtime(d / "empty", 1577836800, 100000000);
  set_mtime(d / "data", 1577836800, 500000000);
  CHECK(st({d / "data", "-nt", d / "empty"}) == 0);
  CHECK(st({d / "empty", "-nt", d / "data"}) == 1);
  CHECK(st({d / "empty", "-ot", d / "data"}) == 0);
  CHECK(st({d / "data", "-ot", d / "empty"}) == 1);
  CHECK(st({d / "data", "-nt", missing}) == 1);
  CHECK(st({missing, "-ot", d / "data"}) == 1);
  CHECK(st({d / "data", "-ef", d / "link"}) == 0);
  CHECK(st({d / "data", "-ef", d / "empty"}) == 1);
  CHECK(st({d.path, "-ef", d / "dir/.."}) == 0);
  CHECK(st({missing, "-ef", missing}) == 1);
  close(sock);
}

TEST_CASE("access checks use the effective ids") {
  if (geteuid() == 0) {
    // root reads anything; a file without any x bit is still not executable.
    ScratchDir d;
    d.write("locked", "x", 0);
    CHECK(st({"-r", d / "locked"}) == 0);
    CHECK(st({"-w", d / "locked"}) == 0);
    CHECK(st({"-x", d / "locked"}) == 1);
  } else {
    ScratchDir d;
    d.write("locked", "x", 0);
    CHECK(st({"-r", d / "locked"}) == 1);
    CHECK(st({"-w", d / "locked"}) == 1);
  }
}

}  // TEST_SUITE
