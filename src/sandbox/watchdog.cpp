#include "sandbox/watchdog.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdio>

#include "base/unique_fd.h"
#include "sandbox/cgroup.h"
#include "sandbox/fd_passing.h"
#include "sandbox/launch.h"
#include "sandbox/proc_stat.h"

namespace lash::sandbox {
namespace {

// Remove the entries of the directory open as dfd, without following symlinks.
void remove_entries(int dfd) {
  DIR* d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return;
  }
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    int sub = openat(dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0) {
      remove_entries(sub);
      unlinkat(dirfd(d), name.c_str(), AT_REMOVEDIR);
    } else {
      unlinkat(dirfd(d), name.c_str(), 0);
    }
  }
  closedir(d);
}

bool lash_alive(int pidfd, pid_t lash) {
  if (pidfd >= 0) {
    struct pollfd p = {pidfd, POLLIN, 0};
    return poll(&p, 1, 0) == 0;  // readable once lash has exited
  }
  // Before Linux 5.3: a zombie answers kill(0) too, so read its state.
  char state = state_of(lash);
  return state != '\0' && state != 'Z' && state != 'X';
}

// Whether PID is lash or one of its descendants: a process of this session. Walked
// up through /proc; a process orphaned by setsid and a double fork is no longer one
// (refused, which is the safe answer).
bool in_session(pid_t pid, pid_t lash) {
  for (int depth = 0; depth < 256 && pid > 1; ++depth) {
    if (pid == lash) return true;
    pid = parent_pid_of(pid);
  }
  return false;
}

// The pid a pidfd refers to, in this process's pid namespace (fdinfo's "Pid:"), or 0.
pid_t pid_of_pidfd(int pidfd) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
  FILE* f = fopen(path, "re");
  if (!f) return 0;
  char line[256];
  long pid = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Pid:\t%ld", &pid) == 1) break;
  fclose(f);
  return pid > 0 ? static_cast<pid_t>(pid) : 0;
}

// Sends SIG for a sandboxed fork of lash, whose own kill(2) Landlock's signal
// scoping refuses for processes outside its domain: lash itself and the session's
// other jobs (`( sleep 60; kill $$ ) &`). Only to processes of this session. The
// target comes as a pidfd the fork opened in its own numbering (the session's pid
// namespace may number it differently from the watchdog), or none for lash itself.
// A pidfd cannot be redirected to a process that reused the pid.
int relay_signal_to(int target_pidfd, int sig, pid_t lash, int lash_pidfd) {
  if (sig < 0 || sig >= NSIG) return EINVAL;
  if (target_pidfd < 0) {  // lash
    if (lash_pidfd >= 0) return syscall(SYS_pidfd_send_signal, lash_pidfd, sig, nullptr, 0) == 0 ? 0 : errno;
    return kill(lash, sig) == 0 ? 0 : errno;
  }
  pid_t pid = pid_of_pidfd(target_pidfd);
  if (pid <= 0) return ESRCH;
  if (!in_session(pid, lash)) return EPERM;
  return syscall(SYS_pidfd_send_signal, target_pidfd, sig, nullptr, 0) == 0 ? 0 : errno;
}

// One request on the relay socket: {signal} with a pipe to answer on and the target's
// pidfd (none: lash), by SCM_RIGHTS, since several forks of lash share the socket
// and each must get its own answer.
void serve_signal_request(int sock, pid_t lash, int lash_pidfd) {
  int32_t rq[1] = {0};
  int fds[2] = {-1, -1};
  ssize_t n = recv_with_fds(sock, rq, sizeof rq, fds, 2, MSG_DONTWAIT);
  int reply = fds[0], target = fds[1];
  if (reply < 0) {
    if (target >= 0) close(target);
    return;
  }
  int32_t err = n == static_cast<ssize_t>(sizeof rq) ? relay_signal_to(target, rq[0], lash, lash_pidfd) : EINVAL;
  (void)!write(reply, &err, sizeof err);
  close(reply);
  if (target >= 0) close(target);
}

bool lash_inside(const std::vector<std::string>& dirs, pid_t lash) {
  for (const auto& d : dirs)
    if (cgroup_has(d, lash)) return true;
  return false;
}

// Moves lash into each session cgroup by writing its pid (the watchdog itself stays
// outside). Returns 0 or the errno of the first failure.
int move_lash_in(pid_t lash, const std::vector<std::string>& dirs) {
  for (const std::string& d : dirs)
    if (auto r = write_cgroup_file(d + "/cgroup.procs", std::to_string(lash)); !r)
      return r.error().err ? r.error().err : EIO;
  return 0;
}

void leave_session_cgroups(const std::vector<std::pair<std::string, std::string>>& hierarchies) {
  std::vector<std::string> lines;
  if (FILE* f = fopen("/proc/self/cgroup", "re")) {
    char line[4096];
    while (fgets(line, sizeof line, f)) lines.push_back(std::string(line, strcspn(line, "\n")));
    fclose(f);
  }
  for (const std::string& line : lines) {
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    size_t at = path.rfind("/lash-");
    if (at == std::string::npos) continue;
    for (const auto& [controller, mount] : hierarchies) {
      bool match = controller.empty() ? controllers.empty()
                                       : ("," + controllers + ",").find("," + controller + ",") != std::string::npos;
      if (!match) continue;
      std::string parent = mount + path.substr(0, at);
      for (const char* file : {"/tasks", "/cgroup.procs"})
        if (write_cgroup_file(parent + file, "0")) break;
    }
  }
}

[[noreturn]] void watchdog_main(int pipe_r, int joined_w, int relay, int lash_pidfd, pid_t lash, int go_r,
                                const WatchdogSpec& spec) {
  const std::vector<std::string>& dirs = spec.cgroup_dirs;
  const std::string& tmpdir = spec.tmpdir;
  setsid();
  prctl(PR_SET_NAME, "lash-watchdog", 0, 0, 0);
  for (int sig : {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE})
    signal(sig, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // Born inside an earlier session cgroup (lash prepared again): leave each for its
  // parent, where lash started ("0" moves this process). /proc/self/cgroup lines are
  // "ID:CONTROLLERS:PATH"; CONTROLLERS is empty for v2.
  leave_session_cgroups(spec.hierarchies);
  // Then the move of lash (lash waits for the answer before it forks anything inside),
  // once lash has forked its namespace helper (EOF on GO).
  char c;
  while (read(go_r, &c, 1) < 0 && errno == EINTR) {
  }
  close(go_r);
  int err = move_lash_in(lash, spec.join_dirs);
  (void)!write(joined_w, &err, sizeof err);
  close(joined_w);
  // Keep nothing of lash open: a held terminal or pipe would keep readers waiting.
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3; ++fd)
    if (null >= 0) dup2(null, fd);
  // Keep only the pipe (as fd 3), the signal relay (fd 4) and lash's pidfd (fd 5).
  int a = fcntl(pipe_r, F_DUPFD_CLOEXEC, 10);
  int r = fcntl(relay, F_DUPFD_CLOEXEC, 10);
  int b = lash_pidfd >= 0 ? fcntl(lash_pidfd, F_DUPFD_CLOEXEC, 10) : -1;
  dup2(a, 3);
  dup2(r, 4);
  if (b >= 0) dup2(b, 5);
  syscall(SYS_close_range, b >= 0 ? 6U : 5U, ~0U, 0U);
  int pidfd = b >= 0 ? 5 : -1;
  // Wake when lash exits (pidfd readable) or closes the pipe (EOF at kill_all), and
  // serve signal requests meanwhile. The pidfd matters because subshells also hold the
  // pipe's write end.
  struct pollfd fds[3] = {{3, POLLIN, 0}, {4, POLLIN, 0}, {pidfd, POLLIN, 0}};
  for (;;) {
    int n = poll(fds, pidfd >= 0 ? 3 : 2, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)) fds[1].fd = -1;  // no fork of lash holds it now
    else if (fds[1].revents & POLLIN) serve_signal_request(4, lash, pidfd);
    if (fds[0].revents || (pidfd >= 0 && fds[2].revents)) break;
  }
  // EOF with lash alive: lash is exiting (its fds close before it is a zombie: the
  // SIGKILLed case), ended the session itself (kill_all), exec'd a program in place,
  // or retired this sandbox at a profile switch. Wait until it has exited, or, when
  // it has cgroups here and has left them, moved on to another session cgroup. An
  // exec'd program keeps the session (and its limits) until it exits.
  // Signal requests are still served meanwhile: the program lash exec'd may be the
  // target (`( sleep 9; kill $$ ) & exec prog`).
  while (lash_alive(pidfd, lash) && (dirs.empty() || lash_inside(dirs, lash))) {
    struct pollfd p[2] = {{pidfd, POLLIN, 0}, {fds[1].fd, POLLIN, 0}};
    if (poll(p, 2, 200) < 0) {
      usleep(200000);
      continue;
    }
    if (p[1].revents & (POLLHUP | POLLERR | POLLNVAL)) fds[1].fd = -1;
    else if (p[1].revents & POLLIN) serve_signal_request(4, lash, pidfd);
  }
  // No more answers: a request still queued (or sent from now on) gets EOF on its
  // answer pipe, and EPERM, rather than waiting for ever.
  close(4);
  kill_and_remove(dirs, lash_alive(pidfd, lash) ? lash : 0);
  if (!lash_alive(pidfd, lash)) {
    (void)quarantine_planted(spec.quarantine);
    if (!tmpdir.empty()) remove_tree(tmpdir);
  }
  _exit(0);
}

}  // namespace

int relay_signal(int relay, pid_t pid, int sig) {
  if (relay < 0) return EPERM;
  // The target pinned here, in this fork's numbering; 0 is lash itself.
  unique_fd target;
  if (pid != 0) {
    target.reset(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
    if (!target) return errno;
  }
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return EPERM;
  unique_fd answer(p[0]), answer_w(p[1]);
  int32_t rq[1] = {static_cast<int32_t>(sig)};
  int fds[2] = {answer_w.get(), target.get()};
  ssize_t n = send_with_fds(relay, rq, sizeof rq, fds, target ? 2 : 1);
  answer_w.reset();  // the watchdog holds the only write end now: EOF if it goes away
  if (n != static_cast<ssize_t>(sizeof rq)) return EPERM;
  int32_t err = EPERM;
  do n = read(answer.get(), &err, sizeof err);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof err) ? err : EPERM;
}

void remove_tree(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) remove_entries(fd);
  rmdir(path.c_str());
}

void remove_tree_at(int dirfd, const std::string& name) {
  int fd = openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;  // not a directory (or a symlink): not ours to remove
  remove_entries(fd);
  unlinkat(dirfd, name.c_str(), AT_REMOVEDIR);
}

std::vector<std::string> quarantine_planted(const std::vector<std::string>& paths) {
  std::vector<std::string> done;
  for (const std::string& p : paths) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0) continue;
    // A fresh name, never over something the session may have planted there too
    // (a directory named NAME.lash-quarantined would make a plain rename fail).
    std::string to;
    for (int i = 0; i < 100 && to.empty(); ++i) {
      std::string cand = p + ".lash-quarantined" + (i ? "." + std::to_string(i) : "");
      if (syscall(SYS_renameat2, AT_FDCWD, p.c_str(), AT_FDCWD, cand.c_str(), RENAME_NOREPLACE) == 0)
        to = cand;
      else if (errno != EEXIST)
        break;
    }
    if (!to.empty()) {
      done.push_back(p + " (moved to " + to + ")");
      continue;
    }
    // It must not stay where git would follow it.
    if (S_ISDIR(st.st_mode))
      remove_tree(p);
    else
      unlink(p.c_str());
    done.push_back(p + (lstat(p.c_str(), &st) == 0 ? " (could NOT be moved or removed)" : " (removed)"));
  }
  return done;
}

Result<Watchdog> start_watchdog(WatchdogSpec spec) {
  int p[2], j[2], s[2], g[2];
  if (pipe2(g, O_CLOEXEC) != 0) return sys_error("cannot create the watchdog pipe", "", errno);
  unique_fd go_r(g[0]), go_w(g[1]);
  if (pipe2(p, O_CLOEXEC) != 0) return sys_error("cannot create the watchdog pipe", "", errno);
  unique_fd r(p[0]), w(p[1]);
  if (pipe2(j, O_CLOEXEC) != 0) return sys_error("cannot create the watchdog pipe", "", errno);
  unique_fd joined_r(j[0]), joined_w(j[1]);
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, s) != 0)
    return sys_error("cannot create the watchdog's signal relay", "", errno);
  unique_fd relay_lash(s[0]), relay_watchdog(s[1]);
  // Double fork: the watchdog must not be lash's child, or lash's job control
  // (waitpid(-1, ...)) would reap it.
  pid_t mid = fork_helper();
  if (mid < 0) return sys_error("cannot start the session watchdog", "", errno);
  if (mid == 0) {
    w.reset();
    joined_r.reset();
    relay_lash.reset();
    go_w.reset();
    pid_t lash = getppid();
    int lash_pidfd = static_cast<int>(syscall(SYS_pidfd_open, lash, 0));  // -1 before 5.3
    pid_t pid = fork_helper();
    if (pid == 0) watchdog_main(r.get(), joined_w.get(), relay_watchdog.get(), lash_pidfd, lash, go_r.get(), spec);
    _exit(pid < 0 ? 1 : 0);
  }
  joined_w.reset();  // only the watchdog holds it: EOF if it dies before answering
  relay_watchdog.reset();
  go_r.reset();
  int ws = 0;
  while (waitpid(mid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
    return Error{"cannot start the session watchdog", "", EAGAIN, {}};
  Watchdog out;
  out.pipe = std::move(w);
  out.joined = std::move(joined_r);
  out.relay = std::move(relay_lash);
  out.go = std::move(go_w);
  return out;
}

}  // namespace lash::sandbox
