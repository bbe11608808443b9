// Landlock ruleset construction (the kernel sample's order: create the ruleset,
// add path-beneath rules on O_PATH fds, later restrict in the child). The best ABI
// the kernel offers is used; rights an older ABI does not know are dropped one ABI
// at a time, each with the consequence written down.
#include "sandbox/landlock.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

#include "sandbox/landlock_abi.h"

namespace lash::sandbox {
namespace {

// Rights lash ever grants for "write". Device nodes (MAKE_CHAR, MAKE_BLOCK) are
// handled but never granted: a root child could otherwise mknod the raw disk.
constexpr uint64_t kWrite = ll::fs_write_file | ll::fs_remove_dir | ll::fs_remove_file |
                            ll::fs_make_dir | ll::fs_make_reg | ll::fs_make_sock |
                            ll::fs_make_fifo | ll::fs_make_sym | ll::fs_refer | ll::fs_truncate;
constexpr uint64_t kRead = ll::fs_read_file | ll::fs_read_dir;

void note_dropped(int abi, bool restrict_net, bool scoping, std::vector<std::string>& out) {
  // Fall through: each older ABI loses what the newer ones added.
  switch (abi) {
    case 1:
      out.push_back("Landlock ABI < 2: renaming or linking files across directories is always refused (REFER)");
      [[fallthrough]];
    case 2:
      out.push_back("Landlock ABI < 3: truncate() outside the write grants is not refused (TRUNCATE)");
      [[fallthrough]];
    case 3:
      if (restrict_net)
        out.push_back("Landlock ABI < 4: TCP port rules are not kernel-enforced");
      [[fallthrough]];
    case 4:
      out.push_back("Landlock ABI < 5: ioctl on device files is not restricted (IOCTL_DEV)");
      [[fallthrough]];
    case 5:
      if (scoping)
        out.push_back("Landlock ABI < 6: signals and abstract unix sockets to processes outside the sandbox are not refused");
      break;
    default:
      break;
  }
}

Result<void> add_path_rule(int ruleset, const PathRule& r, int abi, LandlockRuleset& out,
                           const std::vector<OpenedPath>& opened) {
  unique_fd fd;
  for (const OpenedPath& o : opened)
    if (o.path == r.path) fd.reset(fcntl(o.fd, F_DUPFD_CLOEXEC, 0));
  if (!fd) fd.reset(open(r.path.c_str(), O_PATH | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT || errno == ENOTDIR) {
      out.skipped.push_back(r.path);
      return {};
    }
    return sys_error("cannot open a sandbox grant", r.path, errno);
  }
  // A per-file grant gets file rights whatever is there now (no stat needed: on a
  // directory swapped in since, file rights are less than the directory rights the
  // stat would have chosen).
  bool file = r.file;
  if (!r.file || r.ino != 0) {
    struct stat st;
    if (fstat(fd.get(), &st) != 0) return sys_error("cannot stat a sandbox grant", r.path, errno);
    // A grant must still be what the session resolved: a swap for a symlink in between
    // (by a program of another session) would grant its target.
    if (r.ino != 0 && (static_cast<uint64_t>(st.st_dev) != r.dev || static_cast<uint64_t>(st.st_ino) != r.ino))
      return Error{"the grant " + r.path + " is no longer what the session resolved (replaced meanwhile); "
                   "not granting what it leads to now", r.path, EPERM, {}};
    file = !S_ISDIR(st.st_mode);
  }
  ll::path_beneath_attr attr{};
  attr.allowed_access = landlock_fs_access(r.rights, abi, file);
  attr.parent_fd = fd.get();
  if (attr.allowed_access == 0) return {};
  if (ll::add_rule(ruleset, ll::rule_path_beneath, &attr, 0) != 0)
    return sys_error("cannot add a Landlock rule", r.path, errno);
  return {};
}

Result<void> add_port_rules(int ruleset, const SandboxPlan& plan) {
  auto add = [&](uint64_t access, uint64_t port) -> Result<void> {
    ll::net_port_attr attr{access, port};
    if (ll::add_rule(ruleset, ll::rule_net_port, &attr, 0) != 0)
      return sys_error("cannot add a Landlock port rule", std::to_string(port), errno);
    return {};
  };
  for (const PortRange& pr : plan.connect_ports)
    for (uint32_t p = pr.first; p <= pr.last && p <= 65535; ++p)
      if (auto r = add(ll::net_connect_tcp, p); !r) return r;
  // Binding an ephemeral port (port 0) stays possible; listening on a chosen port only
  // where allow_bind says (inside the session's namespace: its own loopback).
  for (const PortRange& pr : plan.bind_ports)
    for (uint64_t p = pr.first; p <= pr.last; ++p)
      if (auto r = add(ll::net_bind_tcp, p); !r) return r;
  return add(ll::net_bind_tcp, 0);
}

}  // namespace

std::vector<bool> rules_covered_by_ancestors(const std::vector<PathRule>& paths,
                                             const std::vector<OpenedPath>& opened) {
  // Directory grants by path, sorted for a binary search of each ancestor.
  std::vector<std::pair<std::string_view, unsigned>> dirs;
  for (const PathRule& r : paths) {
    if (r.file) continue;
    bool other_inode = false;
    for (const OpenedPath& o : opened) other_inode |= o.path == r.path;
    if (!other_inode) dirs.emplace_back(r.path, r.rights);
  }
  std::sort(dirs.begin(), dirs.end());
  auto rights_at = [&](std::string_view dir) -> unsigned {
    unsigned all = 0;  // the same path granted twice: the kernel adds the rights up
    auto it = std::lower_bound(dirs.begin(), dirs.end(), std::make_pair(dir, 0u));
    for (; it != dirs.end() && it->first == dir; ++it) all |= it->second;
    return all;
  };
  std::vector<bool> covered(paths.size(), false);
  for (size_t i = 0; i < paths.size(); ++i) {
    // Only the exec closure's paths are real paths by construction: a profile's grant
    // may name a symlinked directory, whose target another grant's path does not
    // contain, and its own rule must stay.
    const std::string& o = paths[i].origin;
    if (o != "library" && o != "runtime" && o != "interpreter" && o != "spawn_allowlist") continue;
    std::string_view p = paths[i].path;
    if (p.size() < 2 || p[0] != '/') continue;
    // The rights of all proper ancestors add up: "/usr/lib/x" -> "/usr/lib", "/usr", "/".
    unsigned above = 0;
    for (size_t slash = p.rfind('/');; slash = p.rfind('/', slash - 1)) {
      above |= rights_at(slash == 0 ? p.substr(0, 1) : p.substr(0, slash));
      if ((paths[i].rights & ~above) == 0) {
        covered[i] = true;
        break;
      }
      if (slash == 0) break;
    }
  }
  return covered;
}

uint64_t landlock_handled_fs(int abi) {
  uint64_t h = ll::fs_abi1;
  if (abi >= 2) h |= ll::fs_refer;
  if (abi >= 3) h |= ll::fs_truncate;
  if (abi >= 5) h |= ll::fs_ioctl_dev;
  return h;
}

uint64_t landlock_fs_access(unsigned r, int abi, bool file) {
  uint64_t a = 0;
  if (r & rights::read) a |= kRead;
  if (r & rights::write) a |= kWrite;
  if (r & rights::execute) a |= ll::fs_execute;
  if (r & rights::ioctl_dev) a |= ll::fs_ioctl_dev;
  if (r & rights::list) a |= ll::fs_read_dir;
  a &= landlock_handled_fs(abi);
  if (file) a &= ll::fs_file_only;  // the kernel refuses directory rights on a file
  return a;
}

Result<void> add_later_rules(LandlockRuleset& rs, const SandboxPlan& plan, const std::vector<std::string>& later,
                             const std::vector<OpenedPath>& opened) {
  if (!rs.fd || !plan.restrict_fs) return {};
  for (const PathRule& r : plan.paths)
    if (std::find(later.begin(), later.end(), r.path) != later.end())
      if (auto res = add_path_rule(rs.fd.get(), r, rs.abi, rs, opened); !res) return res.error();
  return {};
}

Result<LandlockRuleset> build_landlock(const SandboxPlan& plan, const Capabilities& caps,
                                       const std::vector<OpenedPath>& opened, const std::vector<std::string>& later) {
  LandlockRuleset out;
  bool scoping = plan.scope_signals || plan.scope_abstract_unix;
  if (!plan.restrict_fs && !plan.restrict_net && !scoping) return out;
  if (caps.landlock_abi < 1)
    return Error{"the kernel has no Landlock: " + caps.landlock_error, "", 0, {}};
  out.abi = caps.landlock_abi;
  note_dropped(out.abi, plan.restrict_net, scoping, out.dropped);

  ll::ruleset_attr attr{};
  if (plan.restrict_fs) attr.handled_access_fs = landlock_handled_fs(out.abi);
  if (plan.restrict_net && out.abi >= 4) attr.handled_access_net = ll::net_connect_tcp | ll::net_bind_tcp;
  if (out.abi >= 6) {
    if (plan.scope_signals) attr.scoped |= ll::scope_signal;
    if (plan.scope_abstract_unix) attr.scoped |= ll::scope_abstract_unix_socket;
  }
  if (attr.handled_access_fs == 0 && attr.handled_access_net == 0 && attr.scoped == 0)
    return out;  // everything asked for needs a newer ABI: said in `dropped`
  // Older kernels reject a struct larger than they know: pass the size of the ABI.
  size_t size = out.abi >= 6 ? sizeof attr : out.abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  long fd = ll::create_ruleset(&attr, size, 0);
  if (fd < 0) return sys_error("cannot create the Landlock ruleset", "", errno);
  out.fd.reset(static_cast<int>(fd));  // the kernel sets O_CLOEXEC on ruleset fds

  if (plan.restrict_fs) {
    // A rule added later may be on another inode than its path names now.
    std::vector<OpenedPath> elsewhere = opened;
    for (const std::string& l : later) elsewhere.push_back({l, -1});
    std::vector<bool> covered = rules_covered_by_ancestors(plan.paths, elsewhere);
    for (size_t i = 0; i < plan.paths.size(); ++i) {
      bool is_later = std::find(later.begin(), later.end(), plan.paths[i].path) != later.end();
      if (!covered[i] && !is_later)
        if (auto res = add_path_rule(out.fd.get(), plan.paths[i], out.abi, out, opened); !res) return res.error();
    }
  }
  if (attr.handled_access_net != 0)
    if (auto res = add_port_rules(out.fd.get(), plan); !res) return res.error();
  return out;
}

Result<LandlockRuleset> build_deny_all_landlock(const Capabilities& caps) {
  ll::ruleset_attr attr{};
  attr.handled_access_fs = landlock_handled_fs(caps.landlock_abi);
  if (caps.landlock_abi >= 6) attr.scoped = ll::scope_abstract_unix_socket | ll::scope_signal;
  size_t size = caps.landlock_abi >= 6 ? sizeof attr : caps.landlock_abi >= 4 ? 16 : 8;
  long fd = ll::create_ruleset(&attr, size, 0);
  if (fd < 0) return sys_error("cannot build an empty Landlock ruleset", "", errno);
  LandlockRuleset rs;
  rs.fd = unique_fd(int(fd));
  rs.abi = caps.landlock_abi;
  return rs;
}

}  // namespace lash::sandbox
