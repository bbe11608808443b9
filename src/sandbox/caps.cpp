// Capability probe: each feature is tested the way it will be used, and a missing
// feature is recorded with the reason (examples.md §6: tell ENOSYS from EOPNOTSUPP).
#include "sandbox/caps.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "base/fileio.h"
#include "sandbox/landlock_abi.h"

namespace lash::sandbox {
namespace {

void probe_landlock(Capabilities& c) {
  long abi = ll::create_ruleset(nullptr, 0, ll::create_ruleset_version);
  if (abi >= 1) {
    c.landlock_abi = static_cast<int>(abi);
    return;
  }
  switch (errno) {
    case ENOSYS: c.landlock_error = "Landlock is not built into this kernel (CONFIG_SECURITY_LANDLOCK)"; break;
    case EOPNOTSUPP: c.landlock_error = "Landlock is disabled at boot (add landlock to the lsm= kernel parameter)"; break;
    default: c.landlock_error = std::string("Landlock probe failed: ") + std::strerror(errno);
  }
}

void probe_seccomp(Capabilities& c) {
  // PR_GET_SECCOMP answers EINVAL when seccomp is not built in.
  c.seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
  c.no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0;
}

// mountinfo field 5 is the mount point, the field after " - " the fs type.
struct Mount {
  std::string root, point, type, super_opts;
};

// The probe runs at every sandboxed session start: these files are read whole with
// one read() and split in place (iostreams cost more than the kernel's part here).
std::string read_text(const std::string& path) {
  std::string out;
  if (read_whole_file(path, out, 1 << 20) != 0) out.clear();
  return out;
}

std::vector<std::string_view> split_on(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t start = 0; start <= s.size();) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  for (std::string_view w : split_on(s, ' '))
    for (std::string_view v : split_on(w, '\t'))
      for (std::string_view x : split_on(v, '\n'))
        if (!x.empty()) out.emplace_back(x);
  return out;
}

std::vector<Mount> read_mounts() {
  std::vector<Mount> out;
  std::string text = read_text("/proc/self/mountinfo");
  for (std::string_view line : split_on(text, '\n')) {
    std::vector<std::string> f = split_words(line);
    // id parent devno root point opts [optional...] - type source super_opts
    auto dash = std::find(f.begin() + std::min<size_t>(f.size(), 6), f.end(), "-");
    if (f.size() < 6 || dash == f.end()) continue;
    auto at = [&](size_t after_dash) { return dash + 1 + after_dash < f.end() ? *(dash + 1 + after_dash) : ""; };
    out.push_back({f[3], f[4], at(0), at(2)});
  }
  return out;
}

bool has_option(std::string_view opts, std::string_view name) {
  for (std::string_view o : split_on(opts, ','))
    if (o == name) return true;
  return false;
}

std::string read_first_line(const std::string& path) {
  std::string text = read_text(path);
  return text.substr(0, text.find('\n'));
}

// /proc/self/cgroup: "0::/path" for v2, "N:ctrl[,ctrl]:/path" for v1.
std::string current_cgroup(const std::string& controller) {
  std::string text = read_text("/proc/self/cgroup");
  for (std::string_view line : split_on(text, '\n')) {
    auto a = line.find(':');
    auto b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (a == std::string_view::npos || b == std::string_view::npos) continue;
    std::string_view ctrls = line.substr(a + 1, b - a - 1);
    bool v2_line = line.substr(0, a) == "0" && ctrls.empty();
    if (controller.empty() ? v2_line : has_option(ctrls, controller)) return std::string(line.substr(b + 1));
  }
  return "";
}

bool kernel_at_least(int major, int minor) {
  struct utsname u;
  if (uname(&u) != 0) return false;
  int ma = 0, mi = 0;
  if (std::sscanf(u.release, "%d.%d", &ma, &mi) != 2) return false;
  return ma > major || (ma == major && mi >= minor);
}

// A directory is writable for us when we may create a child in it.
bool dir_writable(const std::string& dir) { return access(dir.c_str(), W_OK) == 0; }

void probe_cgroup2(Capabilities& c, const std::vector<Mount>& mounts) {
  for (const Mount& m : mounts)
    if (m.type == "cgroup2") {
      c.cgroup2_mount = m.point;
      break;
    }
  if (c.cgroup2_mount.empty()) return;
  c.cgroup2_current = current_cgroup("");
  if (c.cgroup2_current.empty()) return;
  std::string dir = c.cgroup2_mount + (c.cgroup2_current == "/" ? "" : c.cgroup2_current);
  c.cgroup2_writable = dir_writable(dir) && dir_writable(dir + "/cgroup.procs");
  // The root cgroup has no cgroup.kill; a child cgroup does on 5.14+. cgroup.cpp
  // checks the session cgroup itself; this is the answer for review.
  struct stat st;
  c.cgroup2_kill = stat((dir + "/cgroup.kill").c_str(), &st) == 0 || kernel_at_least(5, 14);
  // What a child of the current cgroup can get: subtree_control when set, else what
  // we could enable (controllers of the current cgroup). compile() only trusts what
  // cgroup.cpp actually manages to enable; this is for review.
  auto ctl = split_words(read_first_line(dir + "/cgroup.subtree_control"));
  if (ctl.empty()) ctl = split_words(read_first_line(dir + "/cgroup.controllers"));
  c.cgroup2_controllers = ctl;
}

void probe_v1(CgroupV1Controller& out, const char* name, const std::vector<Mount>& mounts) {
  for (const Mount& m : mounts) {
    if (m.type != "cgroup" || !has_option(m.super_opts, name)) continue;
    out.mount = m.point;
    out.current = current_cgroup(name);
    std::string dir = m.point + (out.current == "/" ? "" : out.current);
    out.writable = !out.current.empty() && dir_writable(dir);
    return;
  }
}

// The user namespace test forks: unshare in the parent would change lash itself.
// Root never needs one (its session namespace is a plain mount namespace) and may
// always make one unless the limit is 0, so root reads the limit instead of
// paying for a fork of lash at every session start.
void probe_userns(Capabilities& c) {
  if (geteuid() == 0) {
    c.user_namespaces = std::strtol(read_text("/proc/sys/user/max_user_namespaces").c_str(), nullptr, 10) > 0;
    return;
  }
  pid_t pid = fork();
  if (pid < 0) return;
  if (pid == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  c.user_namespaces = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
}

}  // namespace

bool Capabilities::has_cgroup2_controller(const std::string& name) const {
  return std::find(cgroup2_controllers.begin(), cgroup2_controllers.end(), name) !=
         cgroup2_controllers.end();
}

bool Capabilities::can_limit_pids() const {
  return (cgroup2_writable && has_cgroup2_controller("pids")) || v1_pids.writable;
}

bool Capabilities::can_limit_memory() const {
  return (cgroup2_writable && has_cgroup2_controller("memory")) || v1_memory.writable;
}

Capabilities probe_capabilities() {
  Capabilities c;
  probe_landlock(c);
  probe_seccomp(c);
  auto mounts = read_mounts();
  probe_cgroup2(c, mounts);
  probe_v1(c.v1_pids, "pids", mounts);
  probe_v1(c.v1_memory, "memory", mounts);
  probe_userns(c);
  c.root = geteuid() == 0;
  return c;
}

std::vector<std::string> describe(const Capabilities& c) {
  std::vector<std::string> out;
  out.push_back(c.landlock_abi > 0 ? "landlock: ABI " + std::to_string(c.landlock_abi)
                                   : "landlock: unavailable (" + c.landlock_error + ")");
  out.push_back(std::string("seccomp: ") + (c.seccomp ? "available" : "unavailable"));
  if (c.cgroup2_mount.empty()) {
    out.push_back("cgroup v2: not mounted (processes tracked by process group)");
  } else {
    std::string ctl;
    for (const auto& s : c.cgroup2_controllers) ctl += (ctl.empty() ? "" : " ") + s;
    out.push_back("cgroup v2: " + c.cgroup2_mount + c.cgroup2_current +
                  (c.cgroup2_writable ? " (writable)" : " (not writable)") +
                  ", controllers: " + (ctl.empty() ? "none" : ctl));
  }
  auto v1 = [&](const char* n, const CgroupV1Controller& v) {
    if (v.mount.empty()) return;
    out.push_back(std::string("cgroup v1 ") + n + ": " + v.mount + v.current +
                  (v.writable ? " (writable)" : " (not writable)"));
  };
  v1("pids", c.v1_pids);
  v1("memory", c.v1_memory);
  out.push_back(std::string("user namespaces: ") + (c.user_namespaces ? "available" : "unavailable"));
  return out;
}

}  // namespace lash::sandbox
