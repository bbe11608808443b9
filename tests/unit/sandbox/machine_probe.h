// The test harness's own probe of the machine: what this kernel and this user can do,
// found without any code of lash (src/sandbox/caps.cpp is code under test). Skips are
// decided from this, and a test compares it with lash's probe, so a regression in
// lash's capability probe fails a test instead of turning tests into silent skips.
#pragma once
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sbtest {

struct Machine {
  int landlock_abi = 0;
  bool seccomp = false;
  bool user_namespaces = false;  // this user can make a user namespace now
  bool root = false;
  bool cgroup2_writable = false;  // a child cgroup can be made (and removed) where we are
  bool v1_pids_writable = false;
  bool v1_memory_writable = false;
  bool delegated_v2 = false;  // the harness (tests/harness/delegate.py) says it delegated one
};

namespace machine_detail {
inline std::string cgroup_dir(const std::string& controller) {
  // mount point of the hierarchy, from /proc/self/mountinfo
  std::ifstream mi("/proc/self/mountinfo");
  std::string line, point;
  while (std::getline(mi, line)) {
    std::istringstream in(line);
    std::string f, mp, opts;
    std::vector<std::string> w;
    while (in >> f) w.push_back(f);
    size_t dash = 0;
    while (dash < w.size() && w[dash] != "-") ++dash;
    if (dash + 3 >= w.size() + 1 || dash + 1 >= w.size()) continue;
    const std::string& type = w[dash + 1];
    std::string super = dash + 3 < w.size() ? w[dash + 3] : "";
    if (controller.empty() ? type == "cgroup2"
                           : type == "cgroup" && ("," + super + ",").find("," + controller + ",") != std::string::npos) {
      point = w[4];
      break;
    }
  }
  if (point.empty()) return "";
  std::ifstream cg("/proc/self/cgroup");
  while (std::getline(cg, line)) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string ctrls = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    bool hit = controller.empty() ? (line.substr(0, a) == "0" && ctrls.empty())
                                  : ("," + ctrls + ",").find("," + controller + ",") != std::string::npos;
    if (hit) return point + (path == "/" ? "" : path);
  }
  return "";
}
// Really makes and removes a child cgroup (access() can be wrong under user namespaces).
inline bool can_make_child(const std::string& dir) {
  if (dir.empty()) return false;
  std::string probe = dir + "/lash-harness-probe-" + std::to_string(getpid());
  if (mkdir(probe.c_str(), 0755) != 0) return false;
  rmdir(probe.c_str());
  // joining needs the cgroup.procs of the common ancestor, i.e. of this directory
  return access((dir + "/cgroup.procs").c_str(), W_OK) == 0;
}
}  // namespace machine_detail

inline Machine probe_machine() {
  Machine m;
  long abi = syscall(444 /* landlock_create_ruleset */, nullptr, 0, 1U /* VERSION */);
  m.landlock_abi = abi > 0 ? static_cast<int>(abi) : 0;
  m.seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 &&
              prctl(PR_SET_SECCOMP, 2 /* FILTER */, nullptr, 0, 0) != 0 && (errno == EFAULT || errno == EACCES);
  m.root = geteuid() == 0;
  pid_t pid = fork();
  if (pid == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
  int ws = 0;
  m.user_namespaces = pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
  m.cgroup2_writable = machine_detail::can_make_child(machine_detail::cgroup_dir(""));
  m.v1_pids_writable = machine_detail::can_make_child(machine_detail::cgroup_dir("pids"));
  m.v1_memory_writable = machine_detail::can_make_child(machine_detail::cgroup_dir("memory"));
  const char* d = std::getenv("LASH_TEST_DELEGATED");
  m.delegated_v2 = d && (std::string(",") + d + ",").find(",v2,") != std::string::npos;
  return m;
}

const Machine& machine();  // probed once (kernel_main.cpp)

// How much slower than idle this machine runs now: wall time over CPU time of a short
// busy loop (best of three), between 1 and 10; LASH_TEST_SLOWNESS sets it. Budgets of
// waits for an event are multiplied by it, so a loaded machine waits longer instead of
// failing (the event itself ends the wait as soon as it happens).
inline double slowness() {
  static const double f = [] {
    if (const char* s = std::getenv("LASH_TEST_SLOWNESS")) return std::max(1.0, std::atof(s));
    double best = 10.0;
    for (int i = 0; i < 3; ++i) {
      timespec w0{}, c0{}, w1{}, c1{};
      clock_gettime(CLOCK_MONOTONIC, &w0);
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
      volatile unsigned long n = 0;
      double cpu = 0;
      do {
        for (int k = 0; k < 10000; ++k) n = n + 1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        cpu = double(c1.tv_sec - c0.tv_sec) + double(c1.tv_nsec - c0.tv_nsec) / 1e9;
      } while (cpu < 0.03);
      clock_gettime(CLOCK_MONOTONIC, &w1);
      double wall = double(w1.tv_sec - w0.tv_sec) + double(w1.tv_nsec - w0.tv_nsec) / 1e9;
      best = std::min(best, wall / cpu);
    }
    return std::max(1.0, best);
  }();
  return f;
}

// Polls PRED every 10 ms until it holds, for at most SECONDS times slowness().
template <class Pred>
bool wait_for(Pred pred, double seconds) {
  int tries = static_cast<int>(seconds * slowness() * 100);
  for (int i = 0; i < tries; ++i) {
    if (pred()) return true;
    usleep(10000);
  }
  return pred();
}

}  // namespace sbtest
