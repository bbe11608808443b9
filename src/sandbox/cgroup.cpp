#include "sandbox/cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>

namespace lash::sandbox {
Result<void> write_cgroup_file(const std::string& path, const std::string& value) {
  unique_fd fd(open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return sys_error("cannot open", path, errno);
  ssize_t n;
  do n = write(fd.get(), value.data(), value.size());
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(value.size())) return sys_error("cannot write", path, n < 0 ? errno : EIO);
  return {};
}

namespace {

std::string join(const std::string& mount, const std::string& current) {
  return mount + (current == "/" ? "" : current);
}


bool exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

Result<void> make_dir(const std::string& dir) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return sys_error("cannot create the session cgroup", dir, errno);
  return {};
}

bool controller_enabled(const std::string& dir, const std::string& name) {
  std::ifstream in(dir + "/cgroup.controllers");
  std::string w;
  while (in >> w)
    if (w == name) return true;
  return false;
}

Result<void> setup_v2(SessionCgroup& cg, const Capabilities& caps, const Limits& l, const std::string& name) {
  if (!caps.cgroup2_writable) {
    cg.notes.push_back("no writable cgroup v2: session processes are tracked by process group only, "
                       "so a process that calls setsid may outlive the session");
    return {};
  }
  std::string dir = join(caps.cgroup2_mount, caps.cgroup2_current) + "/" + name;
  if (auto r = make_dir(dir); !r) return r;
  cg.v2_dir = dir;
  if (l.processes && controller_enabled(dir, "pids")) {
    if (auto r = write_cgroup_file(dir + "/pids.max", std::to_string(l.processes)); !r) return r;
    cg.pids_limited = true;
  }
  if (l.memory && controller_enabled(dir, "memory")) {
    if (auto r = write_cgroup_file(dir + "/memory.max", std::to_string(l.memory)); !r) return r;
    cg.memory_limited = true;
  }
  return {};
}

Result<void> setup_v1(SessionCgroup& cg, const CgroupV1Controller& c, const std::string& name,
                      const std::string& file, uint64_t value) {
  if (!c.writable) return {};
  std::string dir = join(c.mount, c.current) + "/" + name;
  if (auto r = make_dir(dir); !r) return r;
  cg.v1_dirs.push_back(dir);
  return write_cgroup_file(dir + "/" + file, std::to_string(value));
}

void sleep_us(long us) {
  timespec ts{us / 1000000, (us % 1000000) * 1000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

}  // namespace

std::vector<std::string> SessionCgroup::dirs() const {
  std::vector<std::string> out;
  if (!v2_dir.empty()) out.push_back(v2_dir);
  out.insert(out.end(), v1_dirs.begin(), v1_dirs.end());
  return out;
}

Result<SessionCgroup> create_session_cgroup(const Capabilities& caps, const Limits& l, const std::string& name) {
  SessionCgroup cg;
  auto fail = [&](const Error& e) {
    kill_and_remove(cg.dirs(), getpid());  // never lash, whatever the directories hold
    return e;
  };
  // Hybrid hosts: when a limit must come from a v1 controller, lash's v1 cgroups
  // also track every process (a fork inherits them, setsid does not leave them), and
  // no v2 cgroup is made: moving lash into one would wait for an RCU grace period
  // (cgroup.h) and block every fork meanwhile, while v1 lets a thread move itself
  // without that lock. The cost is a kill loop at exit instead of cgroup.kill.
  bool v2_pids = caps.cgroup2_writable && caps.has_cgroup2_controller("pids");
  bool v2_memory = caps.cgroup2_writable && caps.has_cgroup2_controller("memory");
  bool use_v1 = (l.processes && !v2_pids && caps.v1_pids.writable) || (l.memory && !v2_memory && caps.v1_memory.writable);
  if (!use_v1)
    if (auto r = setup_v2(cg, caps, l, name); !r) return fail(r.error());
  if (l.processes && !cg.pids_limited && caps.v1_pids.writable) {
    if (auto r = setup_v1(cg, caps.v1_pids, name, "pids.max", l.processes); !r) return fail(r.error());
    cg.pids_limited = true;
  }
  if (l.memory && !cg.memory_limited && caps.v1_memory.writable) {
    if (auto r = setup_v1(cg, caps.v1_memory, name, "memory.limit_in_bytes", l.memory); !r)
      return fail(r.error());
    cg.memory_limited = true;
  }
  if (l.processes && !cg.pids_limited)
    cg.notes.push_back("no pids controller: max_processes falls back to RLIMIT_NPROC, which counts "
                       "all of the user's processes and does not bind root");
  if (l.memory && !cg.memory_limited)
    cg.notes.push_back("no memory controller: max_memory is a per-process address-space limit only");
  return cg;
}

std::vector<pid_t> cgroup_pids(const std::string& dir) {
  std::vector<pid_t> out;
  std::ifstream in(dir + "/cgroup.procs");
  long p;
  while (in >> p) out.push_back(static_cast<pid_t>(p));
  return out;
}

bool cgroup_has(const std::string& dir, pid_t pid) {
  for (pid_t p : cgroup_pids(dir))
    if (p == pid) return true;
  return false;
}

void kill_and_remove(const std::vector<std::string>& dirs, pid_t spare, bool spare_may_arrive) {
  std::vector<std::string> removable;
  for (const std::string& dir : dirs) {
    if (!exists(dir)) continue;
    bool holds_spare = spare > 0 && (spare_may_arrive || cgroup_has(dir, spare));
    bool killed = !holds_spare && exists(dir + "/cgroup.kill") && write_cgroup_file(dir + "/cgroup.kill", "1").ok();
    // Without cgroup.kill (or with lash inside): freeze (v2) so nothing forks while we
    // kill, then kill each pid. A frozen lash could not go on, so not with lash inside.
    bool frozen = !killed && !holds_spare && exists(dir + "/cgroup.freeze") &&
                  write_cgroup_file(dir + "/cgroup.freeze", "1").ok();
    // A killed process leaves the cgroup within tens of microseconds: wait in short
    // steps first (doubling from 50 us to 10 ms, about 2 s in all).
    long wait_us = 50;
    for (int round = 0; round < 220; ++round) {
      auto pids = cgroup_pids(dir);
      bool others = false;
      for (pid_t p : pids) {
        if (p == spare) continue;
        others = true;
        if (!killed) kill(p, SIGKILL);
      }
      if (!others) break;
      sleep_us(wait_us);
      wait_us = std::min(wait_us * 2, 10000L);
    }
    if (frozen) (void)write_cgroup_file(dir + "/cgroup.freeze", "0");
    if (!holds_spare) removable.push_back(dir);
  }
  // Children before parents does not matter here: each dir is a leaf we created.
  for (const std::string& dir : removable) {
    for (int round = 0; round < 50 && rmdir(dir.c_str()) != 0 && errno == EBUSY; ++round) sleep_us(10000);
  }
}

}  // namespace lash::sandbox
