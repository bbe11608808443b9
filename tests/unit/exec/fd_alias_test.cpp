// Unit tests of exec/fd_alias: which names reach this process's descriptors through
// symlinks, walked in a scratch directory of symlinks.
#include <doctest/doctest.h>

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "exec/fd_alias.h"

using lash::exec::fd_alias_target;
using lash::exec::without_proc_self_links;

TEST_CASE("fd_alias_target: names that lead to this process's descriptors") {
  char tmpl[] = "/tmp/lash-fdalias-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string d = tmpl;
  auto link = [&](const std::string& target, const std::string& name) {
    REQUIRE(symlink(target.c_str(), (d + "/" + name).c_str()) == 0);
  };
  std::string pid = std::to_string(getpid());
  link("/dev/stderr", "err");
  link("err", "err2");  // a chain, relative
  link("/dev/fd", "fds");
  link("/proc/self", "me");
  link("loop-b", "loop-a");
  link("loop-a", "loop-b");
  link("/etc/hostname", "plain");

  CHECK(fd_alias_target("/dev/stderr") == 2);
  CHECK(fd_alias_target("/dev/stdin") == 0);
  CHECK(fd_alias_target("/proc/self/fd/1") == 1);
  CHECK(fd_alias_target("/proc/thread-self/fd/2") == 2);
  CHECK(fd_alias_target("/proc/" + pid + "/fd/7") == 7);  // whether it is open is the caller's question
  CHECK(fd_alias_target(d + "/err") == 2);
  CHECK(fd_alias_target(d + "/err2") == 2);
  CHECK(fd_alias_target(d + "/fds/5") == 5);
  CHECK(fd_alias_target(d + "/me/fd/3") == 3);
  CHECK(fd_alias_target(d + "/./fds/../fd/4") == 4);   // ".." of the link's target, as the kernel
  CHECK(fd_alias_target(d + "/fds/../fds/4") == -1);
  CHECK(fd_alias_target("/proc/self/../self/fd/2") == 2);

  CHECK(fd_alias_target(d + "/loop-a") == -1);
  CHECK(fd_alias_target(d + "/plain") == -1);
  CHECK(fd_alias_target(d + "/missing") == -1);
  CHECK(fd_alias_target("/proc/self/fd") == -1);
  CHECK(fd_alias_target("/proc/self/fd/x") == -1);
  CHECK(fd_alias_target("/proc/self/cwd") == -1);
  CHECK(fd_alias_target("/proc/1/fd/2") == (getpid() == 1 ? 2 : -1));  // another process's
  CHECK(fd_alias_target(d + "/fds/2/x") == -1);
  CHECK(fd_alias_target("") == -1);
  CHECK(fd_alias_target("/proc/self/fd/01") == -1);  // not a name /proc/PID/fd has
  CHECK(fd_alias_target("/proc/self/fd/0") == 0);
  CHECK(fd_alias_target("/proc/self/fd/1/") == -1);  // a directory is asked for
  CHECK(fd_alias_target(d + "/err/") == -1);

  char cwd[PATH_MAX];
  REQUIRE(getcwd(cwd, sizeof cwd) != nullptr);
  REQUIRE(chdir(d.c_str()) == 0);
  CHECK(fd_alias_target("err") == 2);  // relative to the current directory
  CHECK(fd_alias_target("fds/9") == 9);
  REQUIRE(chdir(cwd) == 0);
  for (const char* n : {"err", "err2", "fds", "me", "loop-a", "loop-b", "plain"}) unlink((d + "/" + n).c_str());
  rmdir(d.c_str());
}

TEST_CASE("without_proc_self_links: this process's /proc root and cwd as the directories they name") {
  char cwd[PATH_MAX];
  REQUIRE(getcwd(cwd, sizeof cwd) != nullptr);
  std::string pid = std::to_string(getpid());
  CHECK(without_proc_self_links("/proc/self/root/etc/hosts") == "/etc/hosts");
  CHECK(without_proc_self_links("/proc/self/root") == "/");
  CHECK(without_proc_self_links("/proc/" + pid + "/root/x") == "/x");
  CHECK(without_proc_self_links("/proc/thread-self/root/y") == "/y");
  CHECK(without_proc_self_links("/proc/self/task/" + pid + "/cwd/f") == std::string(cwd) + "/f");
  CHECK(without_proc_self_links("/proc/self/cwd") == std::string(cwd));
  CHECK(without_proc_self_links("/proc/self/cwd/a/b") == std::string(cwd) + "/a/b");
  CHECK(without_proc_self_links("/proc/1/root/etc") == (getpid() == 1 ? "/etc" : ""));  // another process's
  CHECK(without_proc_self_links("/proc/self/rootx/y") == "");
  CHECK(without_proc_self_links("/proc/self/fd/1") == "");
  CHECK(without_proc_self_links("/etc/hosts") == "");
  CHECK(without_proc_self_links("/proc/selfish/root/x") == "");
}
