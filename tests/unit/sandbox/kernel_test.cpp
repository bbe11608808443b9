// The backend against the real kernel. Every refusal has an allow twin: the same
// probe under an empty Prepared (or with the grant) succeeds, so a refusal cannot
// come from something unrelated being broken.
#include <arpa/inet.h>
#include <linux/capability.h>
#include <sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <dirent.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/un.h>

#include <cstring>
#include <functional>
#include <sstream>

#include "machine_probe.h"
#include "probe_util.h"
#include "sandbox/landlock.h"
#include "sandbox/landlock_abi.h"
#include "sandbox/ns.h"

namespace sbtest {
const Capabilities& caps();
}

using namespace sbtest;

namespace {

struct Session {
  TempDir work{"work"};
  TempDir outside{"outside"};
  PlanOptions opts;
  Prepared none;  // the allow twin: plain fork/exec
  Prepared prep;
  explicit Session(PlanOptions o = {}) : opts(std::move(o)) {
    write_text(work / "mine", "mine\n");
    write_text(outside / "secret", "secret\n");
    prep = must_prepare(make_plan(work.path, opts, caps()), caps());
  }
  ~Session() { kill_all(prep); }
  std::string in(std::vector<std::string> args) { return run_probe(prep, std::move(args)); }
  std::string out(std::vector<std::string> args) { return run_probe(none, std::move(args)); }
};

bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_s, comm, state;
  if (!(in >> pid_s >> comm >> state)) return false;
  return state != "Z" && state != "X";
}

bool wait_gone(pid_t pid) {
  wait_for([&] { return !alive(pid); }, 3.0);
  return !alive(pid);
}

}  // namespace

TEST_CASE("reading outside the grants is refused; inside, and without the sandbox, it works") {
  Session s;
  CHECK(s.in({"open-read", s.outside / "secret"}) == "EACCES");
  CHECK(s.out({"open-read", s.outside / "secret"}) == "ok");
  CHECK(s.in({"open-read", s.work / "mine"}) == "ok");
  CHECK(s.in({"open-read", "/etc/hostname"}) == "ok");  // baseline: /etc readable
  CHECK(s.in({"open-read", "/etc/passwd"}) == "ok");
  // ... but not its secrets, which matters for root sessions.
  CHECK(s.in({"open-read", "/etc/shadow"}) == "EACCES");
  if (getuid() == 0) CHECK(s.out({"open-read", "/etc/shadow"}) == "ok");
}

TEST_CASE("writing, truncating, deleting, renaming outside the grants is refused") {
  Session s;
  std::string secret = s.outside / "secret";
  // Two walls: the read-only mounts of the session namespace answer first (EROFS),
  // Landlock behind them (EACCES, seen when the namespace is not there).
  CHECK(s.in({"open-write", secret}) == "EROFS");
  CHECK(s.in({"append", secret}) == "EROFS");
  CHECK(s.in({"truncate", secret}) == "EROFS");
  CHECK(s.in({"unlink", secret}) == "EROFS");
  // EXDEV: the workspace is its own (noexec) mount in the session namespace.
  std::string renamed = s.in({"rename", secret, s.work / "stolen"});
  CHECK((renamed == "EACCES" || renamed == "EXDEV"));
  // Landlock answers EXDEV when a link or rename would move a file into other rights.
  CHECK(s.in({"link", secret, s.work / "hardlink"}) == "EXDEV");
  CHECK(access((s.work / "hardlink").c_str(), F_OK) != 0);
  CHECK(read_text(secret) == "secret\n");  // unchanged
  // Twins inside the workspace.
  CHECK(s.in({"open-write", s.work / "new"}) == "ok");
  CHECK(s.in({"truncate", s.work / "new"}) == "ok");
  CHECK(s.in({"rename", s.work / "new", s.work / "renamed"}) == "ok");
  CHECK(s.in({"unlink", s.work / "renamed"}) == "ok");
  CHECK(s.in({"mkdir", s.work / "d"}) == "ok");
  // And outside without the sandbox.
  CHECK(s.out({"open-write", s.outside / "other"}) == "ok");
}

TEST_CASE("a symlink in the workspace does not lead outside") {
  Session s;
  REQUIRE(symlink((s.outside / "secret").c_str(), (s.work / "link").c_str()) == 0);
  CHECK(s.in({"open-read", s.work / "link"}) == "EACCES");
  CHECK(s.in({"open-write", s.work / "link"}) == "EROFS");  // the read-only mount, then Landlock
  CHECK(s.out({"open-read", s.work / "link"}) == "ok");
  // /proc/self/root is the same filesystem seen from /: still checked.
  CHECK(s.in({"open-read", "/proc/self/root" + s.outside / "secret"}) == "EACCES");
}

TEST_CASE("a hardlink made outside the sandbox to a secret is readable: Landlock checks paths") {
  // Documented limit: a hardlink placed inside a writable grant by someone outside
  // the sandbox is a file in the grant. The sandbox itself cannot make one (above).
  Session s;
  if (link((s.outside / "secret").c_str(), (s.work / "hl").c_str()) != 0) return;
  CHECK(s.in({"open-read", s.work / "hl"}) == "ok");
}

TEST_CASE("only allowlisted programs run; not through ld.so, a copy, or memfd") {
  Session s;
  CHECK(s.in({"exec", "/usr/bin/id"}) == "EACCES");
  CHECK(s.out({"exec", "/usr/bin/id"}) == "ok");
  // The ELF interpreter is executable (it must be), but cannot read the program.
  CHECK(s.in({"run", "/lib64/ld-linux-x86-64.so.2", "/usr/bin/id"}) != "ok");
  CHECK(s.out({"run", "/lib64/ld-linux-x86-64.so.2", "/usr/bin/id"}) == "ok");
  // Copying a program needs reading it.
  CHECK(s.in({"open-read", "/usr/bin/id"}) == "EACCES");
  // A copy of an allowlisted program in the workspace is not executable (W^X).
  std::string copy = s.work / "probe-copy";
  REQUIRE(system(("cp '" + probe_path() + "' '" + copy + "'").c_str()) == 0);
  CHECK(s.in({"exec", copy}) == "EACCES");
  CHECK(s.out({"exec", copy}) == "ok");
  // Nor through the ELF interpreter: the workspace is mounted noexec, so ld.so cannot
  // map a program written there (Landlock's EXECUTE is only checked by execve).
  CHECK(s.in({"run", "/lib64/ld-linux-x86-64.so.2", copy, "fds"}) != "ok");
  CHECK(s.out({"run", "/lib64/ld-linux-x86-64.so.2", copy, "fds"}) == "ok");
  CHECK(s.in({"open-read", copy}) == "ok");  // it is readable: only running it is refused
  CHECK(s.in({"memfd-exec"}) == "EPERM");
  CHECK(s.out({"memfd-exec"}) == "ok");
  // The allowlisted program itself runs.
  CHECK(s.in({"exec", probe_path(), "fds"}) == "ok");
}

TEST_CASE("a readable program outside the exec grants does not run: Landlock's EXECUTE alone") {
  // In a read_only grant (readable, not mounted noexec, not the workspace) only
  // Landlock's EXECUTE right tells reading from running: found by the mutant that
  // leaves EXECUTE unhandled (tests/mutants), which every other test let through.
  TempDir ro("ro-grant");
  std::string copy = ro / "probe-copy";
  REQUIRE(system(("cp '" + probe_path() + "' '" + copy + "' && chmod 755 '" + copy + "'").c_str()) == 0);
  PlanOptions o;
  o.read_only = {ro.path};
  Session s(o);
  CHECK(s.in({"open-read", copy}) == "ok");  // the read grant holds
  CHECK(s.in({"exec", copy}) == "EACCES");
  CHECK(s.out({"exec", copy}) == "ok");  // the twin
}

TEST_CASE("an allowlisted interpreter runs only allowlisted programs") {
  PlanOptions o;
  o.allow = {"/bin/sh"};
  Session s(o);
  CHECK(s.in({"run", "/bin/sh", "-c", "exit 0"}) == "ok");
  CHECK(s.in({"run", "/bin/sh", "-c", "/usr/bin/id"}) == "exit:126");
  CHECK(s.out({"run", "/bin/sh", "-c", "/usr/bin/id"}) == "ok");
}

TEST_CASE("lash's capability probe agrees with the harness's own probe of the machine") {
  // A regression in caps.cpp would otherwise turn kernel tests into silent skips (or
  // make lash refuse, or skip, a layer the machine has).
  const auto& m = machine();
  const auto& c = caps();
  CHECK(c.landlock_abi == m.landlock_abi);
  CHECK(c.seccomp == m.seccomp);
  CHECK(c.root == m.root);
  CHECK(c.user_namespaces == m.user_namespaces);
  CHECK(c.cgroup2_writable == m.cgroup2_writable);
  CHECK(c.v1_pids.writable == m.v1_pids_writable);
  CHECK(c.v1_memory.writable == m.v1_memory_writable);
  if (m.delegated_v2) CHECK(c.cgroup2_writable);
}

TEST_CASE("seccomp: user namespaces, ptrace, io_uring, mount, TIOCSTI are refused") {
  Session s;
  CHECK(s.in({"userns"}) == "EPERM");
  if (machine().user_namespaces) CHECK(s.out({"userns"}) == "ok");
  // The target is exec'd (not a bare fork of this non-dumpable test process), so
  // the allow twin can attach as an unprivileged user too.
  SpawnSpec sleeper;
  sleeper.path = "/bin/sleep";
  sleeper.argv = {"sleep", "30"};
  auto t = launch(s.none, sleeper);
  REQUIRE(t.ok());
  pid_t target = t->pid;
  CHECK(s.in({"ptrace", std::to_string(target)}) == "EPERM");
  CHECK(s.out({"ptrace", std::to_string(target)}) == "ok");
  kill(target, SIGKILL);
  waitpid(target, nullptr, 0);
  CHECK(s.in({"io-uring"}) == "EPERM");
  CHECK(s.out({"io-uring"}) != "EPERM");  // EFAULT: the syscall was reached
  CHECK(s.in({"mount"}) == "EPERM");
  CHECK(s.in({"tiocsti"}) == "EPERM");
  CHECK(s.out({"tiocsti"}) != "EPERM");
}

TEST_CASE("seccomp: pid-addressed calls reach only the caller (pid 0); the same calls work outside") {
  Session s;
  SpawnSpec sleeper;
  sleeper.path = "/bin/sleep";
  sleeper.argv = {"sleep", "30"};
  sleeper.pgid = 0;  // its own process group, for PRIO_PGRP
  auto t = launch(s.none, sleeper);
  REQUIRE(t.ok());
  std::string pid = std::to_string(t->pid);
  std::vector<std::vector<std::string>> calls = {
      {"prlimit", pid, "nofile", "3", "3"}, {"setpriority", "process", pid, "19"},
      {"setpriority", "pgrp", pid, "19"},   {"setscheduler", pid},
      {"setparam", pid},                   {"setattr", pid},
      {"ioprio", pid}};
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1) calls.push_back({"setaffinity", pid});
  for (const auto& c : calls) {
    CAPTURE(c[0]);
    CHECK(s.in(c) == "EPERM");
    CHECK(s.out(c) == "ok");
  }
  // PRIO_USER reaches every process of a uid, even as "who = 0": refused. Its twin
  // names a uid without processes, so that it changes nothing: ESRCH, not EPERM.
  CHECK(s.in({"setpriority", "user", "0", "7"}) == "EPERM");
  CHECK(s.in({"setpriority", "user", "4000123", "7"}) == "EPERM");
  CHECK(s.out({"setpriority", "user", "4000123", "7"}) == "ESRCH");
  // The same calls on the caller itself, by pid 0, work in the sandbox; by its own
  // number they do not (the filter cannot know it, docs/security.md).
  CHECK(s.in({"self-tune"}) == "ok");
  CHECK(s.in({"setscheduler", "self"}) == "ok");
  CHECK(s.in({"setscheduler", "pid"}) == "EPERM");
  CHECK(s.out({"setscheduler", "pid"}) == "ok");
  kill(t->pid, SIGKILL);
  waitpid(t->pid, nullptr, 0);
}

TEST_CASE("seccomp: no setuid or setgid file is made; without the sandbox each way works") {
  Session s;
  struct Way {
    std::string cmd, mode, refused;
    bool needs_file;
  };
  const Way ways[] = {{"chmod-mode", "4755", "EPERM", true},     {"chmod-mode", "2755", "EPERM", true},
                      {"fchmodat2-mode", "4755", "EPERM", true}, {"create-mode", "4755", "EPERM", false},
                      {"create-mode", "2755", "EPERM", false},   {"mknod-mode", "4755", "EPERM", false},
                      {"mknod-mode", "2755", "EPERM", false},    {"openat2-mode", "4755", "ENOSYS", false}};
  int n = 0;
  for (const Way& w : ways) {
    CAPTURE(w.cmd);
    CAPTURE(w.mode);
    std::string in = s.work / ("in" + std::to_string(n)), out = s.work / ("out" + std::to_string(n));
    ++n;
    if (w.needs_file) {
      write_text(in, "x\n");
      write_text(out, "x\n");
    }
    CHECK(s.in({w.cmd, in, w.mode}) == w.refused);
    CHECK(s.out({w.cmd, out, w.mode}) == "ok");
    struct stat st {};
    if (stat(in.c_str(), &st) == 0) CHECK((st.st_mode & (S_ISUID | S_ISGID)) == 0);
    REQUIRE(stat(out.c_str(), &st) == 0);
    CHECK((st.st_mode & (S_ISUID | S_ISGID)) != 0);
  }
  // Plain modes still work inside.
  CHECK(s.in({"create-mode", s.work / "plain", "0755"}) == "ok");
  CHECK(s.in({"chmod-mode", s.work / "plain", "0700"}) == "ok");
  CHECK(s.in({"mknod-mode", s.work / "plain-node", "0644"}) == "ok");
  // A file capability needs CAP_SETFCAP, which root children lose.
  if (getuid() == 0) {
    write_text(s.work / "capped-in", "x\n");
    write_text(s.work / "capped-out", "x\n");
    CHECK(s.in({"setfcap", s.work / "capped-in"}) == "EPERM");
    CHECK(s.out({"setfcap", s.work / "capped-out"}) == "ok");
  }
}

TEST_CASE("seccomp: the argument rules hold for the i386 and x32 ABIs too") {
  Session s;
  SpawnSpec sleeper;
  sleeper.path = "/bin/sleep";
  sleeper.argv = {"sleep", "30"};
  auto t = launch(s.none, sleeper);
  REQUIRE(t.ok());
  std::string pid = std::to_string(t->pid);
  for (const char* abi : {"i386", "x32"}) {
    CAPTURE(abi);
    write_text(s.work / (std::string(abi) + "-out"), "x\n");
    // Without the ABI in this kernel (ENOSYS outside too) there is nothing to show.
    if (s.out({abi, "chmod", s.work / (std::string(abi) + "-out"), "4755"}) != "ok") {
      MESSAGE("skipped: the kernel here has no " << abi << " system calls");
      continue;
    }
    write_text(s.work / (std::string(abi) + "-in"), "x\n");
    CHECK(s.in({abi, "chmod", s.work / (std::string(abi) + "-in"), "4755"}) == "EPERM");
    CHECK(s.in({abi, "chmod", s.work / (std::string(abi) + "-in"), "0755"}) == "ok");
    CHECK(s.in({abi, "create", s.work / (std::string(abi) + "-new-in"), "2755"}) == "EPERM");
    CHECK(s.out({abi, "create", s.work / (std::string(abi) + "-new-out"), "2755"}) == "ok");
    CHECK(s.in({abi, "prlimit", pid}) == "EPERM");
    CHECK(s.out({abi, "prlimit", pid}) == "ok");
    CHECK(s.in({abi, "prlimit", "self"}) == "ok");
    // 19: allowed to any user whatever nice value the tests run at (a lower one
    // needs CAP_SYS_NICE under `nice -n 19`)
    CHECK(s.in({abi, "setpriority", pid, "19"}) == "EPERM");
    CHECK(s.out({abi, "setpriority", pid, "19"}) == "ok");
  }
  kill(t->pid, SIGKILL);
  waitpid(t->pid, nullptr, 0);
}

TEST_CASE("signals and abstract unix sockets do not reach processes outside the sandbox") {
  Session s;
  pid_t outsider = fork();
  if (outsider == 0) {
    pause();
    _exit(0);
  }
  CHECK(s.in({"kill", std::to_string(outsider)}) == "EPERM");
  CHECK(s.out({"kill", std::to_string(outsider)}) == "ok");
  kill(outsider, SIGKILL);
  waitpid(outsider, nullptr, 0);

  int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::string name = "lash-sbtest-" + std::to_string(getpid());
  memcpy(a.sun_path + 1, name.data(), name.size());
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  REQUIRE(bind(l, reinterpret_cast<sockaddr*>(&a), len) == 0);
  REQUIRE(listen(l, 4) == 0);
  CHECK(s.in({"abstract-connect", name}) == "EPERM");
  CHECK(s.out({"abstract-connect", name}) == "ok");
  close(l);
}

TEST_CASE("inherited fds above 2 do not reach the program") {
  Session s;
  int leak = open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC
  REQUIRE(leak > 2);
  CHECK(s.in({"fds"}) == "none");
  CHECK(s.out({"fds"}).find(std::to_string(leak)) != std::string::npos);
  close(leak);
}

TEST_CASE("TCP connect is limited to the allowed ports") {
  auto listener = [](uint16_t& port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    REQUIRE(listen(fd, 8) == 0);
    port = ntohs(a.sin_port);
    return fd;
  };
  uint16_t good = 0, bad = 0;
  int a = listener(good), b = listener(bad);
  PlanOptions o;
  o.restrict_net = true;
  o.ports = {{good, good}};
  Session s(o);
  CHECK(s.in({"connect", "127.0.0.1", std::to_string(good)}) == "ok");
  CHECK(s.in({"connect", "127.0.0.1", std::to_string(bad)}) == "EACCES");
  CHECK(s.out({"connect", "127.0.0.1", std::to_string(bad)}) == "ok");
  CHECK(s.in({"bind", std::to_string(bad == 65535 ? 1024 : bad + 1)}) == "EACCES");
  close(a);
  close(b);
}

TEST_CASE("resource limits: open files, file size, memory, CPU") {
  PlanOptions o;
  o.limits.open_files = 32;
  o.limits.file_size = 1 << 20;
  o.limits.memory = 256ull << 20;
  o.limits.cpu_seconds = 1;
  // The allow twin runs before the session exists: prepare() moves this process into
  // the session cgroup, whose memory limit would then bind the twin too.
  CHECK(run_probe(Prepared{}, {"alloc", "512"}) == "ok");
  Session s(o);
  CHECK(s.in({"rlimit", "nofile"}) == "32");
  CHECK(s.in({"open-files", "40"}) == "EMFILE");
  CHECK(s.out({"open-files", "40"}) == "ok");
  CHECK(s.in({"write-size", s.work / "big", std::to_string(2 << 20)}) == "EFBIG");
  CHECK(s.in({"write-size", s.work / "small", std::to_string(512 << 10)}) == "ok");
#if defined(__SANITIZE_ADDRESS__)
  // A sanitizer build of lash does not set RLIMIT_AS (docs/sandbox.md): only the
  // release build can show the refusal; the allowance holds in both.
  MESSAGE("max_memory (RLIMIT_AS) refusal not checked in a sanitizer build");
#else
  CHECK(s.in({"alloc", "512"}) == "ENOMEM");
#endif
  std::string burn = s.in({"run", probe_path(), "burn-cpu"});
  CHECK((burn == "signal:24" || burn == "signal:9"));  // SIGXCPU, then SIGKILL
}

TEST_CASE("max_processes stops a fork bomb, also as root (cgroup pids)") {
  if (!(machine().cgroup2_writable || machine().v1_pids_writable) && getuid() == 0) {
    MESSAGE("no pids controller and running as root: RLIMIT_NPROC does not bind root");
    return;
  }
  PlanOptions o;
  o.limits.processes = 20;
  CHECK(run_probe(Prepared{}, {"fork-bomb", "50"}) == "ok");  // the twin, before this process joins
  Session s(o);
  CHECK(s.in({"fork-bomb", "50"}) == "EAGAIN");
  CHECK(s.in({"fork-bomb", "5"}) == "ok");
}

TEST_CASE("lash and its children are in the session cgroup; kill_all kills a setsid double-forked process") {
  if (!machine().cgroup2_writable) {
    REQUIRE_MESSAGE(!machine().delegated_v2, "the harness delegated a cgroup, yet none can be made");
    MESSAGE("SKIPPED: no writable cgroup v2 here (the harness's probe)");
    return;
  }
  // A fake lash in a fork: prepare() moves the preparing process into the cgroup,
  // and its directories go only after it has exited. With a process limit on a
  // hybrid host the v1 pids cgroup is the tracker (no v2 cgroup is made): both ways.
  for (uint64_t limit : {uint64_t{0}, uint64_t{64}}) {
  CAPTURE(limit);
  PlanOptions opts;
  opts.limits.processes = limit;
  TempDir work("cg");
  int p[2];
  REQUIRE(pipe(p) == 0);
  pid_t fake_lash = fork();
  if (fake_lash == 0) {
    close(p[0]);
    auto prep = prepare(make_plan(work.path, opts, caps()), caps());
    if (!prep) _exit(3);
    std::string child_cg = run_probe(*prep, {"cgroups"});
    std::string escaped = run_probe(*prep, {"detach-sleeper"});
    std::string dir = prep->cgroup_dirs.empty() ? "-" : prep->cgroup_dirs[0];
    bool self_inside = cgroup_has(dir, getpid());
    kill_all(*prep);  // must not kill this process: the message below is only sent if it did not
    // Gone while this fake lash still lives: kill_all's own cgroup kill, not the
    // watchdog's cleanup after lash exits (which would hide a kill_all that killed
    // nothing: a mutant of tests/mutants did so).
    pid_t e = static_cast<pid_t>(std::atoi(escaped.c_str()));
    bool gone_before_exit = e > 0 && wait_for([&] { return !alive(e); }, 3.0);
    std::string msg = child_cg + " " + escaped + " " + dir + " " + (self_inside ? "inside" : "outside") + " " +
                      (gone_before_exit ? "killed-by-kill_all" : "alive-after-kill_all") + "\n";
    (void)!write(p[1], msg.data(), msg.size());
    _exit(0);
  }
  close(p[1]);
  char buf[1024] = {};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  REQUIRE(n > 0);
  std::string child_cg, pid_text, dir, flags, by_kill_all;
  std::istringstream(buf) >> child_cg >> pid_text >> dir >> flags >> by_kill_all;
  CHECK(by_kill_all == "killed-by-kill_all");
  int ws = 0;
  waitpid(fake_lash, &ws, 0);
  CHECK(WIFEXITED(ws));
  CHECK(child_cg.find("/lash-" + std::to_string(fake_lash)) != std::string::npos);
  CHECK(flags == "inside");
  pid_t escaped = std::atoi(pid_text.c_str());
  REQUIRE(escaped > 0);
  CHECK(wait_gone(escaped));
  wait_for([&] { return access(dir.c_str(), F_OK) != 0; }, 3.0);
  CHECK(access(dir.c_str(), F_OK) != 0);  // removed by the watchdog once the fake lash exited
  }
}

TEST_CASE("lash is not dumpable once the sandbox is prepared (children cannot read its memory or environ)") {
  // Checked on lash itself: the escape rows that read /proc/LASH/environ are stopped
  // first by the pid namespace and Landlock's ptrace scoping, which hid a lash that
  // stayed dumpable (a mutant of tests/mutants).
  TempDir work("dumpable");
  int p[2];
  REQUIRE(pipe(p) == 0);
  pid_t fake_lash = fork();
  REQUIRE(fake_lash >= 0);
  if (fake_lash == 0) {
    close(p[0]);
    // (an earlier test's prepare() in this process left it non-dumpable: start dumpable)
    (void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    int before = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    auto prep = prepare(make_plan(work.path, {}, caps()), caps());
    int after = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    if (prep) kill_all(*prep);
    std::string msg = std::to_string(before) + " " + std::to_string(after) + (prep ? "" : " prepare-failed");
    (void)!write(p[1], msg.data(), msg.size());
    _exit(0);
  }
  close(p[1]);
  char buf[64] = {};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  waitpid(fake_lash, nullptr, 0);
  REQUIRE(n > 0);
  CHECK(std::string(buf) == "1 0");  // dumpable before (the twin), not after
}

namespace {
// The capabilities docs/security.md says a root child loses, written out here rather
// than taken from child.cpp, so that one left out of the drop list fails a test.
constexpr int kMustDrop[] = {
    CAP_DAC_READ_SEARCH, CAP_FSETID, CAP_LINUX_IMMUTABLE, CAP_NET_ADMIN, CAP_NET_RAW, CAP_IPC_LOCK,
    CAP_IPC_OWNER, CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_PTRACE, CAP_SYS_PACCT, CAP_SYS_ADMIN,
    CAP_SYS_BOOT, CAP_SYS_NICE, CAP_SYS_RESOURCE, CAP_SYS_TIME, CAP_SYS_TTY_CONFIG, CAP_MKNOD,
    CAP_AUDIT_WRITE, CAP_AUDIT_CONTROL, CAP_SETFCAP, CAP_MAC_OVERRIDE, CAP_MAC_ADMIN, CAP_SYSLOG,
    CAP_WAKE_ALARM, CAP_BLOCK_SUSPEND, CAP_AUDIT_READ, CAP_PERFMON, CAP_BPF, CAP_CHECKPOINT_RESTORE};

bool write_proc_file(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// "eff:N prm:N bnd:N" (lash-probe capsets) as three masks.
std::vector<unsigned long long> cap_masks(const std::string& text) {
  std::vector<unsigned long long> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w.size() > 4 && w[3] == ':') out.push_back(std::stoull(w.substr(4)));
  return out;
}
}  // namespace

TEST_CASE("dropped capabilities: a root child keeps none of them, also where the bounding set has them all") {
  // The host's bounding set may lack some (CAP_SYS_RESOURCE here): a drop left out of
  // child.cpp would go unseen as plain root. In a new user namespace, uid 0 there holds
  // every capability the kernel has (the bounding set starts full), so the twin shows
  // each one present and the sandboxed child shows each one gone.
  if (!machine().user_namespaces) {
    MESSAGE("SKIPPED: no user namespaces for this user (the harness's probe): no full capability set to drop from");
    return;
  }
  int p[2];
  REQUIRE(pipe2(p, O_CLOEXEC) == 0);
  uid_t uid = getuid();
  gid_t gid = getgid();
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    std::string out = "no-userns";
    try {
      // An earlier prepare() in this process made it non-dumpable, and the map files
      // of a non-dumpable process belong to root: dumpable again, in this fork only.
      if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0 && unshare(CLONE_NEWUSER) == 0 && write_proc_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") &&
          write_proc_file("/proc/self/setgroups", "deny\n") &&
          write_proc_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n")) {
        Prepared drop, none;
        drop.drop_caps = true;
        out = run_probe(drop, {"capsets"}) + "|" + run_probe(none, {"capsets"});
      }
    } catch (...) {
      out = "probe-failed";
    }
    (void)!write(p[1], out.data(), out.size());
    _exit(0);
  }
  close(p[1]);
  std::string text;
  char buf[256];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(p[0]);
  waitpid(pid, nullptr, 0);
  CAPTURE(text);
  auto bar = text.find('|');
  REQUIRE(bar != std::string::npos);
  auto in = cap_masks(text.substr(0, bar)), out = cap_masks(text.substr(bar + 1));
  REQUIRE(in.size() == 3);
  REQUIRE(out.size() == 3);
  int last = std::stoi(read_text("/proc/sys/kernel/cap_last_cap"));
  for (int cap : kMustDrop) {
    if (cap > last) continue;  // a kernel older than the capability
    CAPTURE(cap);
    unsigned long long bit = 1ULL << cap;
    CHECK((out[0] & bit) != 0);  // the twin: uid 0 of the namespace has it
    CHECK((out[2] & bit) != 0);
    CHECK((in[0] & bit) == 0);   // effective, permitted and bounding: gone for good
    CHECK((in[1] & bit) == 0);
    CHECK((in[2] & bit) == 0);
  }
  // Only those: what the table keeps (CAP_CHOWN, CAP_SETUID, ...) stays effective.
  unsigned long long dropped = 0;
  for (int cap : kMustDrop) dropped |= 1ULL << cap;
  CHECK(in[0] == (out[0] & ~dropped));
}

TEST_CASE("the watchdog cleans up when lash is SIGKILLed") {
  if (!machine().cgroup2_writable) {
    REQUIRE_MESSAGE(!machine().delegated_v2, "the harness delegated a cgroup, yet none can be made");
    MESSAGE("SKIPPED: no writable cgroup v2 here (the harness's probe)");
    return;
  }
  TempDir work("wd");
  int p[2];
  REQUIRE(pipe(p) == 0);
  pid_t fake_lash = fork();
  if (fake_lash == 0) {
    close(p[0]);
    auto prep = prepare(make_plan(work.path, {}, caps()), caps());
    if (!prep) _exit(3);
    std::string pid_text = run_probe(*prep, {"detach-sleeper"});
    std::string dir = prep->cgroup_dirs.empty() ? "" : prep->cgroup_dirs[0];
    std::string msg = pid_text + " " + dir + "\n";
    (void)!write(p[1], msg.data(), msg.size());
    pause();  // killed below, without any chance to clean up
    _exit(0);
  }
  close(p[1]);
  char buf[512] = {};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  REQUIRE(n > 0);
  std::string pid_text, dir;
  std::istringstream(buf) >> pid_text >> dir;
  pid_t escaped = std::atoi(pid_text.c_str());
  REQUIRE(escaped > 0);
  CHECK(alive(escaped));
  kill(fake_lash, SIGKILL);
  waitpid(fake_lash, nullptr, 0);
  CHECK(wait_gone(escaped));
  wait_for([&] { return access(dir.c_str(), F_OK) != 0; }, 2.0);
  CHECK(access(dir.c_str(), F_OK) != 0);
}

TEST_CASE("fork_shell: the subshell is sandboxed and can still launch") {
  Session s;
  auto r = fork_shell(s.prep);
  REQUIRE(r.ok());
  if (*r == 0) {
    int fd = open((s.outside / "secret").c_str(), O_RDONLY | O_CLOEXEC);
    bool refused = fd < 0 && errno == EACCES;
    // A launch from inside the subshell adds no second layer and works.
    std::string nested = run_probe(s.prep, {"open-read", s.work / "mine"});
    std::string nested_out = run_probe(s.prep, {"open-read", s.outside / "secret"});
    _exit(refused && nested == "ok" && nested_out == "EACCES" ? 0 : 1);
  }
  int ws = 0;
  waitpid(*r, &ws, 0);
  CHECK(WIFEXITED(ws));
  CHECK(WEXITSTATUS(ws) == 0);
}

TEST_CASE("a child-side sandbox failure is reported, never an unsandboxed run") {
  Session s;
  Prepared broken;
  broken.no_new_privs = true;
  broken.landlock.reset(open("/dev/null", O_RDONLY | O_CLOEXEC));  // not a ruleset
  std::string r = run_probe(broken, {"open-read", s.outside / "secret"});
  CHECK(r == "launch:landlock:" + std::to_string(EBADFD));
}

TEST_CASE("stale_session_dirs: leftovers of this pid namespace whose lash is gone") {
  TempDir d("stale");
  auto mk = [&](const std::string& n) { REQUIRE(mkdir((d.path + "/" + n).c_str(), 0700) == 0); };
  std::string me = std::to_string(getpid());
  mk("7-4194303-aaaaaa");  // gone: stale
  mk("7-" + me + "-bbbbbb");  // alive
  mk("8-4194303-cccccc");  // another pid namespace
  mk("7-4194303-keep01");  // the caller's own name
  mk("7-0-dddddd");
  mk("7-x-eeeeee");
  mk("junk");
  mk("7-4194303");
  int fd = open(d.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  auto s = stale_session_dirs(fd, 7, "7-4194303-keep01");
  REQUIRE(s.size() == 1);
  CHECK(s[0] == "7-4194303-aaaaaa");
  close(fd);
  CHECK(stale_session_dirs(-1, 7, "").empty());
}

TEST_CASE("the session tmpdir is made 0700, writable, not executable, removed at exit") {
  auto t = make_session_tmpdir();
  REQUIRE(t.ok());
  struct stat st;
  REQUIRE(stat(t->c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  TempDir work("tmpd");
  auto plan = make_plan(work.path, {}, caps());
  plan.paths.push_back({*t, rights::read | rights::write, false, "tmpdir", ""});
  plan.tmpdir = *t;
  Prepared prep = must_prepare(plan, caps());
  CHECK(run_probe(prep, {"open-write", *t + "/f"}) == "ok");
  REQUIRE(system(("cp '" + probe_path() + "' '" + *t + "/p'").c_str()) == 0);
  CHECK(run_probe(prep, {"exec", *t + "/p"}) == "EACCES");
  kill_all(prep);
  CHECK(access(t->c_str(), F_OK) != 0);
}

TEST_CASE("chmod outside the grants is refused (read-only mounts); inside it works") {
  Session s;
  // Landlock has no right for chmod/chown/utime/xattr: the session mount namespace
  // makes every mount but the writable grants read-only.
  CHECK(s.in({"chmod", s.outside / "secret"}) == "EROFS");
  CHECK(s.out({"chmod", s.outside / "secret"}) == "ok");
  CHECK(s.in({"chmod", s.work / "mine"}) == "ok");
  CHECK(s.in({"open-write", s.work / "new"}) == "ok");       // the grant stays writable
  CHECK(s.in({"open-write", "/dev/null"}) == "ok");          // devices on read-only mounts too
}

TEST_CASE("protect: git hooks and config stay read-only inside the writable workspace") {
  TempDir work("protect");
  REQUIRE(mkdir((work / ".git").c_str(), 0755) == 0);
  REQUIRE(mkdir((work / ".git/hooks").c_str(), 0755) == 0);
  write_text(work / ".git/config", "[core]\n");
  PlanOptions o;
  o.protect = {".git/hooks", ".git/config", ".git/missing"};
  auto plan = make_plan(work.path, o, caps());
  REQUIRE(plan.protect.size() == 3);
  Prepared prep = must_prepare(plan, caps());
  CHECK(run_probe(prep, {"open-write", work / ".git/hooks/pre-commit"}) == "EROFS");
  CHECK(run_probe(prep, {"append", work / ".git/config"}) == "EROFS");
  CHECK(run_probe(prep, {"open-write", work / ".git/other"}) == "ok");  // the rest stays writable
  CHECK(run_probe(prep, {"open-read", work / ".git/config"}) == "ok");
  // A relative path from lash's cwd resolves inside the namespace too.
  char old[4096];
  REQUIRE(getcwd(old, sizeof old));
  REQUIRE(chdir(work.path.c_str()) == 0);
  CHECK(run_probe(prep, {"open-write", ".git/hooks/post-checkout"}) == "EROFS");
  CHECK(run_probe(prep, {"open-write", "plain"}) == "ok");
  REQUIRE(chdir(old) == 0);
  // The twin: without protect the same hook can be planted.
  Prepared open = must_prepare(make_plan(work.path, {}, caps()), caps());
  CHECK(run_probe(open, {"open-write", work / ".git/hooks/pre-commit"}) == "ok");
  CHECK(read_text(work / ".git/config") == "[core]\n");
  kill_all(prep);
  kill_all(open);
}

TEST_CASE("/proc/PID/environ and mem of processes outside the sandbox are refused") {
  Session s;
  SpawnSpec sleeper;
  sleeper.path = "/bin/sleep";
  sleeper.argv = {"sleep", "30"};
  sleeper.envp = {"SECRET_TOKEN=hunter2"};
  auto t = launch(s.none, sleeper);
  REQUIRE(t.ok());
  // A root session has a private /proc (hidepid=ptraceable): outside processes are
  // not there at all. Unprivileged, Landlock's ptrace rule refuses what needs it.
  bool hidden = getuid() == 0;
  std::string refused = hidden ? "ENOENT" : "EACCES";
  for (pid_t outside : {t->pid, getpid()}) {  // another process, and "lash" itself
    std::string proc = "/proc/" + std::to_string(outside);
    CAPTURE(proc);
    // prepare() made "lash" non-dumpable: its environ is closed even to unsandboxed
    // children of another uid, so the twin only holds for the other process or root.
    bool twin = outside != getpid() || getuid() == 0;
    CHECK(s.in({"open-read", proc + "/environ"}) == refused);
    if (twin) CHECK(s.out({"open-read", proc + "/environ"}) == "ok");
    CHECK(s.in({"open-read", proc + "/mem"}) == refused);
    // /proc/PID/cwd and /proc/PID/root lead into the outside process's view: refused.
    CHECK(s.in({"open-read", proc + "/cwd"}) == refused);
    CHECK(s.in({"open-read", proc + "/root/etc/hostname"}) == refused);
    if (twin) CHECK(s.out({"open-read", proc + "/root/etc/hostname"}) == "ok");
    // The command line: hidden for root; for an unprivileged session a documented
    // gap (it would need a pid namespace, docs/security.md).
    CHECK(s.in({"open-read", proc + "/cmdline"}) == (hidden ? "ENOENT" : "ok"));
    CHECK(s.out({"open-read", proc + "/cmdline"}) == "ok");
  }
  CHECK(s.in({"open-read", "/proc/self/status"}) == "ok");  // its own entries stay
  CHECK(s.in({"capeff"}) == (getuid() == 0 ? "dropped" : "none"));
  kill(t->pid, SIGKILL);
  waitpid(t->pid, nullptr, 0);
}

TEST_CASE("fd broker: the shell's own opens are checked by the kernel, fds come back") {
  Session s;
  auto b = Broker::start(s.prep);
  REQUIRE(b.ok());
  auto ok = b->open(s.work / "mine", O_RDONLY);
  REQUIRE(ok.ok());
  char buf[8] = {};
  CHECK(read(ok->get(), buf, 4) == 4);
  CHECK(std::string(buf) == "mine");
  CHECK((fcntl(ok->get(), F_GETFD) & FD_CLOEXEC) != 0);
  auto denied = b->open(s.outside / "secret", O_RDONLY);
  REQUIRE(!denied.ok());
  CHECK(denied.error().err == EACCES);
  auto w = b->open(s.work / "made-by-broker", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(w.ok());
  CHECK(write(w->get(), "x", 1) == 1);
  CHECK(read_text(s.work / "made-by-broker") == "x");
  auto wout = b->open(s.outside / "planted", O_WRONLY | O_CREAT, 0600);
  CHECK(!wout.ok());
  CHECK(access((s.outside / "planted").c_str(), F_OK) != 0);
  // Closed request set: flags outside the mask are refused before any open.
  auto bad = b->open(s.work / "mine", O_RDONLY | O_PATH);
  CHECK(!bad.ok());
  CHECK(bad.error().err == EINVAL);
  // Relative paths resolve against lash's cwd.
  char old[4096];
  REQUIRE(getcwd(old, sizeof old));
  REQUIRE(chdir(s.work.path.c_str()) == 0);
  auto rel = b->open("mine", O_RDONLY);
  REQUIRE(chdir(old) == 0);
  CHECK(rel.ok());
  // The allow twin: without the sandbox the secret opens.
  CHECK(open((s.outside / "secret").c_str(), O_RDONLY | O_CLOEXEC) >= 0);
  b->stop();
  CHECK(!b->open(s.work / "mine", O_RDONLY).ok());
}

TEST_CASE("SessionSandbox: prepare, launch, open_for_user, kill_all") {
  TempDir work("session");
  write_text(work / "f", "f\n");
  TempDir outside("session-out");
  write_text(outside / "secret", "s\n");
  SessionSandbox sb;
  sb.set_capabilities(caps());
  // Before prepare: plain shell.
  CHECK(sb.open_for_user(outside / "secret", O_RDONLY).ok());
  PlanOptions o;
  o.allow = {"/bin/sleep"};
  REQUIRE(sb.prepare(make_plan(work.path, o, caps())).ok());
  CHECK(!sb.open_for_user(outside / "secret", O_RDONLY).ok());
  CHECK(sb.open_for_user(work / "f", O_RDONLY).ok());
  CHECK(run_probe(sb.prepared(), {"open-read", outside / "secret"}) == "EACCES");
  auto lr = sb.launch([&] {
    SpawnSpec s;
    s.path = "/bin/sleep";
    s.argv = {"sleep", "60"};
    return s;
  }());
  REQUIRE(lr.ok());
  CHECK(lr->failure.step == ChildStep::none);
  // The child shared this process's memory (CLONE_VM) while it applied the sandbox:
  // it must not have marked this process as sandboxed, or the next child would
  // skip the sandbox.
  CHECK(!running_sandboxed());
  CHECK(run_probe(sb.prepared(), {"open-read", outside / "secret"}) == "EACCES");
  sb.take_notes();
  CHECK(sb.take_notes().empty());  // each note once
  sb.kill_all();
  // Without a writable cgroup there is nothing for kill_all to kill: the job table's
  // process-group fallback is the shell's (here: the test's) job.
  if (!machine().cgroup2_writable) kill(lr->pid, SIGKILL);
  int ws = 0;
  REQUIRE(waitpid(lr->pid, &ws, 0) == lr->pid);
  if (machine().cgroup2_writable) {
    CHECK(WIFSIGNALED(ws));
    CHECK(WTERMSIG(ws) == SIGKILL);
  }
}

TEST_CASE("prepare: a field needing a newer Landlock ABI is refused under enforce, noted under warn") {
  TempDir work("abi");
  Capabilities old = caps();
  old.landlock_abi = 3;
  PlanOptions o;
  o.restrict_net = true;
  o.ports = {{443, 443}};
  auto plan = make_plan(work.path, o, old);
  auto refused = prepare(plan, old);
  REQUIRE(!refused.ok());
  CHECK(refused.error().what.find("Landlock ABI 4") != std::string::npos);
  plan.net_enforcement = Enforcement::warn;
  auto warned = prepare(plan, old);
  REQUIRE(warned.ok());
  bool said = false;
  for (const auto& n : warned->notes) said = said || n.find("ABI 4") != std::string::npos;
  CHECK(said);
  kill_all(*warned);
}

TEST_CASE("pathname unix sockets outside the grants are masked; inside they work") {
  TempDir out("sock-out");
  TempDir work("sock-work");
  auto listen_at = [](const std::string& path) {
    int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.data(), path.size());
    REQUIRE(bind(l, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(l, 4) == 0);
    chmod(path.c_str(), 0777);
    return l;
  };
  int lo = listen_at(out / "agent.sock");
  int li = listen_at(work / "own.sock");
  Prepared prep = must_prepare(make_plan(work.path, {}, caps()), caps());
  Prepared none;
  CHECK(run_probe(prep, {"unix-connect", out / "agent.sock"}) == "ECONNREFUSED");
  CHECK(run_probe(none, {"unix-connect", out / "agent.sock"}) == "ok");
  CHECK(run_probe(prep, {"unix-connect", work / "own.sock"}) == "ok");
  kill_all(prep);
  close(lo);
  close(li);
}

TEST_CASE("SessionSandbox: the tmpdir is removed at exit even if nothing was prepared") {
  SessionSandbox sb;
  auto t = sb.make_tmpdir();
  REQUIRE(t.ok());
  CHECK(access(t->c_str(), F_OK) == 0);
  sb.kill_all();
  CHECK(access(t->c_str(), F_OK) != 0);
}

TEST_CASE("a grant swapped for a symlink after it was resolved is not granted") {
  // Both kinds of profile grant: the workdir (writable) and a read_only directory.
  for (bool writable : {true, false}) {
    CAPTURE(writable);
    TempDir parent("swap"), other("work"), outside("outside");
    std::string granted = parent / "granted";
    REQUIRE(mkdir(granted.c_str(), 0755) == 0);
    PlanOptions o;
    if (!writable) o.read_only = {granted};
    SandboxPlan plan = make_plan(writable ? granted : other.path, o, caps());
    struct stat st;
    REQUIRE(stat(granted.c_str(), &st) == 0);
    PathRule* rule = nullptr;
    for (auto& r : plan.paths)
      if (r.path == granted) rule = &r;
    REQUIRE(rule);
    rule->dev = static_cast<uint64_t>(st.st_dev);  // what the session's facts and context record
    rule->ino = static_cast<uint64_t>(st.st_ino);
    // The twin: unchanged, the ruleset is built.
    CHECK(build_landlock(plan, caps(), {}).ok());
    // Another session's program swaps the directory for a symlink to elsewhere.
    REQUIRE(rename(granted.c_str(), (parent / "granted.real").c_str()) == 0);
    REQUIRE(symlink(outside.path.c_str(), granted.c_str()) == 0);
    auto swapped = build_landlock(plan, caps(), {});
    CHECK(!swapped.ok());
    if (!swapped.ok()) CHECK(swapped.error().message().find("no longer what the session resolved") != std::string::npos);
  }
}

TEST_CASE("the session context records what each read_only grant resolved to") {
  TempDir docs("docs");
  lash::policy::ResolvedProfile rp;
  rp.values.read_only.value = {docs.path, docs.path + "/missing"};
  lash::policy::SessionEnv env;
  env.start_dir = docs.path;
  env.home = docs.path;
  SessionContext ctx = make_session_context(rp, env, {}, /*with_closure=*/false);
  struct stat st;
  REQUIRE(stat(docs.path.c_str(), &st) == 0);
  REQUIRE(ctx.read_only_ids.count(docs.path) == 1);
  CHECK(ctx.read_only_ids[docs.path].first == static_cast<uint64_t>(st.st_dev));
  CHECK(ctx.read_only_ids[docs.path].second == static_cast<uint64_t>(st.st_ino));
  CHECK(ctx.read_only_ids.count(docs.path + "/missing") == 0);
}

// The ruleset's own report of missing grants shows which rules build_landlock tried
// to add: a covered closure path is not even looked up, a LATER path waits for
// add_later_rules. (The unit test of rules_covered_by_ancestors would pass with the
// rule skipping unwired.)
TEST_CASE("build_landlock: covered closure paths are not added, later paths only by add_later_rules") {
  TempDir lib("covered");
  SandboxPlan plan;
  plan.restrict_fs = true;
  plan.paths.push_back({lib.path, rights::read, false, "read_only", ""});
  plan.paths.push_back({lib / "gone.so", rights::read, true, "library", ""});      // covered
  plan.paths.push_back({lib / "gone-prog", rights::read | rights::execute, true, "spawn_allowlist", ""});
  plan.paths.push_back({lib / "gone-later", rights::read, false, "baseline", ""});
  std::vector<std::string> later = {lib / "gone-later"};
  auto rs = build_landlock(plan, caps(), {}, later);
  REQUIRE(rs.ok());
  CHECK(rs->skipped == std::vector<std::string>{lib / "gone-prog"});
  REQUIRE(add_later_rules(*rs, plan, later, {}).ok());
  CHECK(rs->skipped == std::vector<std::string>{lib / "gone-prog", lib / "gone-later"});
}

// ---- The session's pid and IPC namespaces (issue 18) ----
// This process turns them off for the tests above (their allow twins are forked from
// the same process and must stay in the host's pid namespace). The tests below
// prepare in a fork, a fake lash with the namespaces on; the twins run from here.
namespace {
const bool g_pidns_off = (lash::sandbox::set_session_pid_namespace(false), true);

// The host pid of the process numbered NSPID in the pid namespace lash's children are
// born in (this process's pid_for_children), or 0.
pid_t host_pid_in_children_ns(pid_t nspid) {
  struct stat mine {};
  if (stat("/proc/self/ns/pid_for_children", &mine) != 0) return 0;
  DIR* d = opendir("/proc");
  if (!d) return 0;
  pid_t found = 0;
  while (dirent* e = readdir(d)) {
    pid_t pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    struct stat ns {};
    std::string base = "/proc/" + std::string(e->d_name);
    if (stat((base + "/ns/pid").c_str(), &ns) != 0 || ns.st_ino != mine.st_ino || ns.st_dev != mine.st_dev) continue;
    std::ifstream in(base + "/status");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("NSpid:", 0) == 0) {
        std::string last = line.substr(line.find_last_of(" \t") + 1);
        if (std::atoi(last.c_str()) == nspid) found = pid;
      }
    if (found) break;
  }
  closedir(d);
  return found;
}

// Runs BODY in a fake lash with the namespaces on; returns what it wrote.
template <typename F>
std::string in_fake_lash(F body, pid_t* fake = nullptr, bool keep = false) {
  int p[2];
  REQUIRE(pipe(p) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    lash::sandbox::set_session_pid_namespace(true);
    std::string msg = body();
    (void)!write(p[1], msg.data(), msg.size());
    close(p[1]);
    if (keep) pause();  // killed by the test
    _exit(0);
  }
  close(p[1]);
  std::string text;
  char buf[1024];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) {
    text.append(buf, static_cast<size_t>(n));
    if (keep && !text.empty() && text.back() == '\n') break;
  }
  close(p[0]);
  if (fake) *fake = pid;
  if (!keep) waitpid(pid, nullptr, 0);
  return text;
}
}  // namespace

TEST_CASE("pid namespace: processes outside the session do not exist for it; inside they do") {
  if (!machine().root && !machine().user_namespaces) {
    MESSAGE("SKIPPED: no user namespaces for this user: no pid namespace can be made");
    return;
  }
  (void)g_pidns_off;
  pid_t victim = fork();  // outside: in the host's pid namespace
  REQUIRE(victim >= 0);
  if (victim == 0) {
    pause();
    _exit(0);
  }
  std::string v = std::to_string(victim);
  std::vector<std::vector<std::string>> calls = {{"kill", v, "0"}, {"prlimit-get", v},      {"getpriority", v},
                                                 {"sched-getaffinity", v}, {"pidfd-open", v},
                                                 {"open-read", "/proc/" + v + "/status"}};
  TempDir work("pidns");
  std::string got = in_fake_lash([&] {
    auto prep = prepare(make_plan(work.path, {}, caps()), caps());
    if (!prep) return std::string("prepare-failed:") + prep.error().message();
    std::string out;
    for (const auto& c : calls) out += run_probe(*prep, c) + " ";
    // The same calls aimed at a process inside (the session's init, pid 1, is not a
    // sandboxed domain's: only its existence is asked).
    out += run_probe(*prep, {"open-read", "/proc/self/status"}) + " ";
    out += run_probe(*prep, {"grep", "/proc/self/status", "NSpid"}) + "\n";
    kill_all(*prep);
    return out;
  });
  INFO(got);
  std::istringstream in(got);
  for (const auto& c : calls) {
    std::string tok;
    in >> tok;
    CAPTURE(c[0]);
    CHECK((tok == "ESRCH" || tok == "ENOENT"));
    Prepared none;
    CHECK(run_probe(none, c) == "ok");  // the twin: from outside the session it works
  }
  std::string self_tok;
  in >> self_tok;
  CHECK(self_tok == "ok");
  kill(victim, SIGKILL);
  waitpid(victim, nullptr, 0);
}

TEST_CASE("IPC namespace: SysV shared memory, semaphores and queues made outside are invisible") {
  if (!machine().root && !machine().user_namespaces) {
    MESSAGE("SKIPPED: no user namespaces for this user");
    return;
  }
  key_t key = static_cast<key_t>(0x4c410000 + (getpid() & 0xffff));
  int shm = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600);
  int sem = semget(key, 1, IPC_CREAT | IPC_EXCL | 0600);
  int msg = msgget(key, IPC_CREAT | IPC_EXCL | 0600);
  REQUIRE(shm >= 0);
  REQUIRE(sem >= 0);
  REQUIRE(msg >= 0);
  std::string k = std::to_string(key);
  TempDir work("ipcns");
  std::string got = in_fake_lash([&] {
    auto prep = prepare(make_plan(work.path, {}, caps()), caps());
    if (!prep) return std::string("prepare-failed");
    std::string out = run_probe(*prep, {"shm-get", k}) + " " + run_probe(*prep, {"sem-get", k}) + " " +
                      run_probe(*prep, {"msg-get", k}) + "\n";
    kill_all(*prep);
    return out;
  });
  CHECK(got == "ENOENT ENOENT ENOENT\n");
  Prepared none;  // twins
  CHECK(run_probe(none, {"shm-get", k}) == "ok");
  CHECK(run_probe(none, {"sem-get", k}) == "ok");
  CHECK(run_probe(none, {"msg-get", k}) == "ok");
  shmctl(shm, IPC_RMID, nullptr);
  semctl(sem, 0, IPC_RMID);
  msgctl(msg, IPC_RMID, nullptr);
}

TEST_CASE("pid namespace: a setsid double fork dies at session end and when lash is SIGKILLed") {
  if (!machine().root && !machine().user_namespaces) {
    MESSAGE("SKIPPED: no user namespaces for this user");
    return;
  }
  for (bool sigkill : {false, true}) {
    CAPTURE(sigkill);
    TempDir work("pidns-life");
    pid_t fake = -1;
    std::string got = in_fake_lash(
        [&] {
          auto prep = prepare(make_plan(work.path, {}, caps()), caps());
          if (!prep) return std::string("0\n");
          pid_t nspid = std::atoi(run_probe(*prep, {"detach-sleeper"}).c_str());
          pid_t host = host_pid_in_children_ns(nspid);
          if (!sigkill) {
            std::string before = alive(host) ? "alive" : "gone";
            kill_all(*prep);
            return std::to_string(host) + " " + before + "\n";
          }
          return std::to_string(host) + " alive\n";
        },
        &fake, sigkill);
    pid_t host = std::atoi(got.c_str());
    REQUIRE(host > 0);
    CHECK(got.find("alive") != std::string::npos);  // it did run, detached
    if (sigkill) {
      kill(fake, SIGKILL);
      waitpid(fake, nullptr, 0);
    }
    CHECK(wait_gone(host));  // within 3 s; the kernel kills it at once
  }
}

TEST_CASE("ns: the session mount namespace is read-only but for its writable grants, protects, and leaves the host alone") {
  // src/sandbox/ns.cpp directly (no Landlock, no seccomp): a child that enters only
  // the namespace lash made is refused by the read-only mounts; the host (the twin)
  // is not changed by them.
  if (!machine().root && !machine().user_namespaces) {
    MESSAGE("SKIPPED: no user namespaces for this user (the harness's probe)");
    return;
  }
  TempDir work("ns-work");
  TempDir other("ns-other");
  REQUIRE(mkdir((work / ".git").c_str(), 0755) == 0);
  write_text(work / ".git/config", "[core]\n");
  NamespaceSpec spec;
  spec.read_only_root = true;
  spec.writable = {work.path};
  spec.protect = {work / ".git/config"};
  auto ns = make_session_namespace(spec, caps());
  REQUIRE_MESSAGE(ns.ok(), (ns.ok() ? "" : ns.error().message()));
  auto try_write = [](const std::string& p) {
    int fd = open(p.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return std::string(strerrorname_np(errno));
    close(fd);
    return std::string("ok");
  };
  int p[2];
  REQUIRE(pipe2(p, O_CLOEXEC) == 0);
  pid_t kid = fork();
  REQUIRE(kid >= 0);
  if (kid == 0) {
    std::string out;
    if (ns->user && setns(ns->user.get(), CLONE_NEWUSER) != 0) out = "setns-user ";
    if (ns->mnt && setns(ns->mnt.get(), CLONE_NEWNS) != 0) out += "setns-mnt ";
    if (out.empty())
      out = try_write(other / "f") + " " + try_write(work / "f") + " " + try_write(work / ".git/config");
    (void)!write(p[1], out.data(), out.size());
    _exit(0);
  }
  close(p[1]);
  char buf[256] = {};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  waitpid(kid, nullptr, 0);
  REQUIRE(n > 0);
  CHECK(std::string(buf) == "EROFS ok EROFS");
  // the twin: the host's view is unchanged
  CHECK(try_write(other / "f") == "ok");
  CHECK(try_write(work / ".git/config") == "ok");
  CHECK(ns->protected_paths == std::vector<std::string>{work / ".git/config"});
}

TEST_CASE("Landlock alone: deleting, truncating, renaming and linking outside the grants are refused") {
  // Only the Landlock ruleset lash builds, restricted in a child: no read-only mounts,
  // which refuse these writes first in a full session (EROFS) and hid a ruleset that
  // no longer handled them (tests/mutants). The twin: the same child without it.
  TempDir work("ll-work");
  TempDir other("ll-other");
  auto rs = build_landlock(make_plan(work.path, {}, caps()), caps(), {});
  REQUIRE(rs.ok());
  REQUIRE(rs->fd);
  auto attempt = [&](bool restricted, const std::function<int()>& fn) {
    int p[2];
    REQUIRE(pipe(p) == 0);
    pid_t kid = fork();
    REQUIRE(kid >= 0);
    if (kid == 0) {
      close(p[0]);
      int rc = 0;
      if (restricted && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || lash::sandbox::ll::restrict_self(rs->fd.get(), 0) != 0))
        rc = -2;
      std::string out = rc == -2 ? "setup" : fn() == 0 ? "ok" : strerrorname_np(errno);
      (void)!write(p[1], out.data(), out.size());
      _exit(0);
    }
    close(p[1]);
    char buf[64] = {};
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    waitpid(kid, nullptr, 0);
    return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
  };
  struct Row {
    const char* what;
    std::function<int()> fn;
    const char* refusal = "EACCES";  // Landlock says EXDEV where only REFER is missing
  };
  std::string f = other / "f", g = other / "g", d = other / "d", w = work / "moved";
  std::vector<Row> rows = {
      {"unlink", [&] { return unlink(f.c_str()); }},
      {"truncate", [&] { return truncate(f.c_str(), 0); }},
      {"rename out", [&] { return rename(f.c_str(), w.c_str()); }},
      {"link in", [&] { return link(f.c_str(), (work / "hl").c_str()); }, "EXDEV"},
      {"rmdir", [&] { return rmdir(d.c_str()); }},
      {"write", [&] { int fd = open(f.c_str(), O_WRONLY | O_CLOEXEC); if (fd >= 0) close(fd); return fd < 0 ? -1 : 0; }},
  };
  for (const auto& r : rows) {
    CAPTURE(std::string(r.what));
    write_text(f, "x\n");
    mkdir(d.c_str(), 0755);
    CHECK(attempt(true, r.fn) == r.refusal);
    write_text(f, "x\n");
    mkdir(d.c_str(), 0755);
    CHECK(attempt(false, r.fn) == "ok");  // the twin
    unlink(w.c_str());
    unlink((work / "hl").c_str());
  }
  // Inside the grant a file moves between directories (REFER granted): without REFER
  // handled at all, Landlock would refuse every cross-directory move (EXDEV)
  mkdir((work / "a").c_str(), 0755);
  mkdir((work / "b").c_str(), 0755);
  write_text(work / "a/f", "x\n");
  std::string from = work / "a/f", to = work / "b/f";
  CHECK(attempt(true, [&] { return rename(from.c_str(), to.c_str()); }) == "ok");
}
