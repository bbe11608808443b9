// launch() and fork_shell() against the real kernel, with an empty Prepared.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

#include "sandbox/launch.h"

using namespace lash::sandbox;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/lash-unit-sandbox-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path + "'";
    (void)system(cmd.c_str());
  }
};

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int wait_status(pid_t pid) {
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0) REQUIRE(errno == EINTR);
  return ws;
}

int exit_code(pid_t pid) {
  int ws = wait_status(pid);
  REQUIRE(WIFEXITED(ws));
  return WEXITSTATUS(ws);
}

FdOp open_op(int fd, std::string path, int flags) {
  FdOp op;
  op.kind = FdOp::Kind::open;
  op.fd = fd;
  op.path = std::move(path);
  op.flags = flags;
  return op;
}

FdOp dup_op(int fd, int from) {
  FdOp op;
  op.kind = FdOp::Kind::dup;
  op.fd = fd;
  op.from = from;
  return op;
}

FdOp close_op(int fd) {
  FdOp op;
  op.kind = FdOp::Kind::close;
  op.fd = fd;
  return op;
}

const int kWrite = O_WRONLY | O_CREAT | O_TRUNC;

}  // namespace

TEST_CASE("launch: /bin/echo with stdout redirected into a file") {
  TempDir d;
  std::string out = d.path + "/out";
  SpawnSpec s;
  s.path = "/bin/echo";
  s.argv = {"echo", "hello", "world"};
  s.fd_ops = {open_op(1, out, kWrite)};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::none);
  CHECK(exit_code(r->pid) == 0);
  CHECK(slurp(out) == "hello world\n");
}

TEST_CASE("launch: a missing program is an exec failure with ENOENT and status 127") {
  SpawnSpec s;
  s.path = "/nonexistent/lash-no-such-program";
  s.argv = {"lash-no-such-program"};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::exec);
  CHECK(r->failure.err == ENOENT);
  CHECK(r->failure.fd_op_index == -1);
  CHECK(exit_code(r->pid) == 127);
}

TEST_CASE("launch: a non-executable file is an exec failure with EACCES and status 126") {
  TempDir d;
  std::string f = d.path + "/plain";
  { std::ofstream(f) << "not a program\n"; }
  REQUIRE(chmod(f.c_str(), 0644) == 0);
  SpawnSpec s;
  s.path = f;
  s.argv = {"plain"};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::exec);
  CHECK(r->failure.err == EACCES);
  CHECK(exit_code(r->pid) == 126);
}

TEST_CASE("launch: redirect into a missing directory reports fd_open with its index") {
  TempDir d;
  std::string ok_file = d.path + "/first";
  SpawnSpec s;
  s.path = "/bin/echo";
  s.argv = {"echo", "x"};
  s.fd_ops = {open_op(2, ok_file, kWrite), open_op(1, d.path + "/missing/out", kWrite)};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::fd_open);
  CHECK(r->failure.err == ENOENT);
  CHECK(r->failure.fd_op_index == 1);
  CHECK(exit_code(r->pid) == 126);
  CHECK(access(ok_file.c_str(), F_OK) == 0);  // the first op did run
}

TEST_CASE("launch: dup sends stderr to the stdout file; close makes a write fail") {
  TempDir d;
  std::string out = d.path + "/out";
  SpawnSpec s;
  s.path = "/bin/sh";
  s.argv = {"sh", "-c", "echo to-out; echo to-err >&2"};
  s.fd_ops = {open_op(1, out, kWrite), dup_op(2, 1)};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::none);
  CHECK(exit_code(r->pid) == 0);
  CHECK(slurp(out) == "to-out\nto-err\n");

  // With fd 1 closed, echo cannot write: the twin above shows the same echo succeeds.
  std::string err = d.path + "/err";
  SpawnSpec c;
  c.path = "/bin/echo";
  c.argv = {"echo", "lost"};
  c.fd_ops = {open_op(2, err, kWrite), close_op(1)};
  auto rc = launch(Prepared{}, c);
  REQUIRE(rc.ok());
  CHECK(rc->failure.step == ChildStep::none);
  CHECK(exit_code(rc->pid) != 0);
  CHECK(slurp(err).find("lost") == std::string::npos);
  CHECK(!slurp(err).empty());  // echo's own "write error" message
}

TEST_CASE("launch: dup from a closed fd reports fd_dup with EBADF") {
  SpawnSpec s;
  s.path = "/bin/true";
  s.argv = {"true"};
  s.fd_ops = {close_op(7), dup_op(1, 7)};
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::fd_dup);
  CHECK(r->failure.err == EBADF);
  CHECK(r->failure.fd_op_index == 1);
  CHECK(exit_code(r->pid) == 126);
}

TEST_CASE("launch: redirections onto many fds do not hide a later step's failure") {
  TempDir d;
  std::string out = d.path + "/out";
  // Open every fd up to 12 onto the file: where a status channel would have landed
  // (the failure record now travels in memory); the last step's failure still shows.
  SpawnSpec s;
  s.path = "/bin/true";
  s.argv = {"true"};
  for (int fd = 3; fd <= 12; ++fd) s.fd_ops.push_back(open_op(fd, out, O_WRONLY | O_CREAT));
  s.fd_ops.push_back(open_op(1, d.path + "/missing/x", kWrite));
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::fd_open);
  CHECK(r->failure.fd_op_index == 10);
  CHECK(exit_code(r->pid) == 126);
}

TEST_CASE("launch: envp is delivered exactly, nothing inherited") {
  TempDir d;
  std::string out = d.path + "/env";
  REQUIRE(setenv("LASH_TEST_SHOULD_NOT_LEAK", "1", 1) == 0);
  SpawnSpec s;
  s.path = "/usr/bin/env";
  s.argv = {"env"};
  s.envp = {"A=1", "B=two words", "EMPTY="};
  s.fd_ops = {open_op(1, out, kWrite)};
  auto r = launch(Prepared{}, s);
  unsetenv("LASH_TEST_SHOULD_NOT_LEAK");
  REQUIRE(r.ok());
  CHECK(r->failure.step == ChildStep::none);
  CHECK(exit_code(r->pid) == 0);
  CHECK(slurp(out) == "A=1\nB=two words\nEMPTY=\n");
}

TEST_CASE("launch: ignore_signals is honoured, handlers are reset to default") {
  // lash catches SIGUSR1 with a handler; the child must see it at default.
  struct sigaction sa {};
  sa.sa_handler = [](int) {};
  sigemptyset(&sa.sa_mask);
  struct sigaction old_usr1 {};
  REQUIRE(sigaction(SIGUSR1, &sa, &old_usr1) == 0);

  auto run_sh = [](std::vector<int> ignore) {
    SpawnSpec s;
    s.path = "/bin/sh";
    // The shell sends the signal to itself; it survives only if it is ignored.
    s.argv = {"sh", "-c", "kill -TERM $$; kill -USR1 $$; echo alive"};
    s.ignore_signals = std::move(ignore);
    s.fd_ops = {open_op(1, "/dev/null", O_WRONLY)};
    auto r = launch(Prepared{}, s);
    REQUIRE(r.ok());
    REQUIRE(r->failure.step == ChildStep::none);
    return wait_status(r->pid);
  };
  int ignored = run_sh({SIGTERM, SIGUSR1});
  CHECK(WIFEXITED(ignored));
  CHECK(WEXITSTATUS(ignored) == 0);

  int defaulted = run_sh({SIGUSR1});
  CHECK(WIFSIGNALED(defaulted));
  CHECK(WTERMSIG(defaulted) == SIGTERM);

  int handler_reset = run_sh({SIGTERM});
  CHECK(WIFSIGNALED(handler_reset));
  CHECK(WTERMSIG(handler_reset) == SIGUSR1);
  REQUIRE(sigaction(SIGUSR1, &old_usr1, nullptr) == 0);
}

TEST_CASE("launch: default_signals undoes an ignore lash holds") {
  struct sigaction ign {}, old {};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  REQUIRE(sigaction(SIGUSR2, &ign, &old) == 0);
  auto run_sh = [](std::vector<int> defaults) {
    SpawnSpec s;
    s.path = "/bin/sh";
    s.argv = {"sh", "-c", "kill -USR2 $$; echo alive"};
    s.default_signals = std::move(defaults);
    s.fd_ops = {open_op(1, "/dev/null", O_WRONLY)};
    auto r = launch(Prepared{}, s);
    REQUIRE(r.ok());
    return wait_status(r->pid);
  };
  int inherited = run_sh({});
  CHECK(WIFEXITED(inherited));
  int reset = run_sh({SIGUSR2});
  CHECK(WIFSIGNALED(reset));
  CHECK(WTERMSIG(reset) == SIGUSR2);
  REQUIRE(sigaction(SIGUSR2, &old, nullptr) == 0);
}

TEST_CASE("launch: signals blocked in lash are unblocked in the child") {
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  REQUIRE(pthread_sigmask(SIG_BLOCK, &term, &old) == 0);
  SpawnSpec s;
  s.path = "/bin/sh";
  s.argv = {"sh", "-c", "kill -TERM $$; echo alive"};
  auto r = launch(Prepared{}, s);
  REQUIRE(pthread_sigmask(SIG_SETMASK, &old, nullptr) == 0);
  REQUIRE(r.ok());
  int ws = wait_status(r->pid);
  CHECK(WIFSIGNALED(ws));
}

TEST_CASE("launch: pgid 0 puts the child in a new process group") {
  SpawnSpec s;
  s.path = "/bin/sleep";
  s.argv = {"sleep", "5"};
  s.pgid = 0;
  auto r = launch(Prepared{}, s);
  REQUIRE(r.ok());
  REQUIRE(r->failure.step == ChildStep::none);
  CHECK(getpgid(r->pid) == r->pid);
  CHECK(getpgid(r->pid) != getpgrp());
  kill(r->pid, SIGKILL);
  wait_status(r->pid);
}

TEST_CASE("fork_shell: returns 0 in the child and the pid in the parent") {
  auto r = fork_shell(Prepared{}, 0);
  REQUIRE(r.ok());
  if (*r == 0) _exit(getpgrp() == getpid() ? 42 : 43);
  CHECK(exit_code(*r) == 42);
}

TEST_CASE("step_name names every step") {
  CHECK(std::string(step_name(ChildStep::exec)) == "exec");
  CHECK(std::string(step_name(ChildStep::fd_open)) == "fd_open");
  CHECK(std::string(step_name(ChildStep::landlock)) == "landlock");
}

TEST_CASE("exec_in_place: replaces the process, or returns the failure") {
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    SpawnSpec s;
    s.path = "/bin/sh";
    s.argv = {"sh", "-c", "exit 7"};
    exec_in_place(Prepared{}, s);
    _exit(99);
  }
  CHECK(exit_code(pid) == 7);

  SpawnSpec missing;
  missing.path = "/nonexistent/lash-no-such-program";
  missing.argv = {"x"};
  LaunchFailure f = exec_in_place(Prepared{}, missing);
  CHECK(f.step == ChildStep::exec);
  CHECK(f.err == ENOENT);
}
