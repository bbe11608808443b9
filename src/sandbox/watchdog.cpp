#include "sandbox/watchdog.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdio>

#include "sandbox/cgroup.h"
#include "sandbox/launch.h"

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
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(lash));
  FILE* f = fopen(path, "re");
  if (!f) return false;
  char state = '?';
  int n = fscanf(f, "%*d (%*[^)]) %c", &state);
  fclose(f);
  return n == 1 && state != 'Z' && state != 'X';
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

[[noreturn]] void watchdog_main(int pipe_r, int joined_w, int lash_pidfd, pid_t lash, const WatchdogSpec& spec) {
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
  // Then the move of lash (lash waits for the answer before it forks anything inside).
  int err = move_lash_in(lash, spec.join_dirs);
  (void)!write(joined_w, &err, sizeof err);
  close(joined_w);
  // Keep nothing of lash open: a held terminal or pipe would keep readers waiting.
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3; ++fd)
    if (null >= 0) dup2(null, fd);
  // Keep only the pipe (as fd 3) and lash's pidfd (as fd 4).
  int a = fcntl(pipe_r, F_DUPFD_CLOEXEC, 10);
  int b = lash_pidfd >= 0 ? fcntl(lash_pidfd, F_DUPFD_CLOEXEC, 10) : -1;
  dup2(a, 3);
  if (b >= 0) dup2(b, 4);
  syscall(SYS_close_range, b >= 0 ? 5U : 4U, ~0U, 0U);
  // Wake when lash exits (pidfd readable) or closes the pipe (EOF at kill_all). The
  // pidfd matters because subshells also hold the pipe's write end.
  struct pollfd fds[2] = {{3, POLLIN, 0}, {4, POLLIN, 0}};
  for (;;) {
    int n = poll(fds, b >= 0 ? 2 : 1, -1);
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  int pidfd = b >= 0 ? 4 : -1;
  // EOF with lash alive: lash is exiting (its fds close before it is a zombie: the
  // SIGKILLed case), ended the session itself (kill_all), exec'd a program in place,
  // or retired this sandbox at a profile switch. Wait until it has exited, or, when
  // it has cgroups here and has left them, moved on to another session cgroup. An
  // exec'd program keeps the session (and its limits) until it exits.
  while (lash_alive(pidfd, lash) && (dirs.empty() || lash_inside(dirs, lash))) {
    struct pollfd p = {pidfd, POLLIN, 0};
    if (pidfd < 0 || poll(&p, 1, 200) < 0) usleep(200000);
  }
  kill_and_remove(dirs, lash_alive(pidfd, lash) ? lash : 0);
  if (!lash_alive(pidfd, lash)) {
    (void)quarantine_planted(spec.quarantine);
    if (!tmpdir.empty()) remove_tree(tmpdir);
  }
  _exit(0);
}

}  // namespace

void remove_tree(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) remove_entries(fd);
  rmdir(path.c_str());
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
  int p[2], j[2];
  if (pipe2(p, O_CLOEXEC) != 0) return sys_error("cannot create the watchdog pipe", "", errno);
  unique_fd r(p[0]), w(p[1]);
  if (pipe2(j, O_CLOEXEC) != 0) return sys_error("cannot create the watchdog pipe", "", errno);
  unique_fd joined_r(j[0]), joined_w(j[1]);
  // Double fork: the watchdog must not be lash's child, or lash's job control
  // (waitpid(-1, ...)) would reap it.
  pid_t mid = fork_helper();
  if (mid < 0) return sys_error("cannot start the session watchdog", "", errno);
  if (mid == 0) {
    w.reset();
    joined_r.reset();
    pid_t lash = getppid();
    int lash_pidfd = static_cast<int>(syscall(SYS_pidfd_open, lash, 0));  // -1 before 5.3
    pid_t pid = fork_helper();
    if (pid == 0) watchdog_main(r.get(), joined_w.get(), lash_pidfd, lash, spec);
    _exit(pid < 0 ? 1 : 0);
  }
  joined_w.reset();  // only the watchdog holds it: EOF if it dies before answering
  int ws = 0;
  while (waitpid(mid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
    return Error{"cannot start the session watchdog", "", EAGAIN, {}};
  Watchdog out;
  out.pipe = std::move(w);
  out.joined = std::move(joined_r);
  return out;
}

}  // namespace lash::sandbox
