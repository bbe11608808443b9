// Landlock ruleset construction (the kernel sample's order: create the ruleset,
// add path-beneath rules on O_PATH fds, later restrict in the child). The best ABI
// the kernel offers is used; rights an older ABI does not know are dropped one ABI
// at a time, each with the consequence written down.
#include "sandbox/landlock.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

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
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return sys_error("cannot stat a sandbox grant", r.path, errno);
  // A grant must still be what the session resolved: a swap for a symlink in between
  // (by a program of another session) would grant its target.
  if (r.ino != 0 && (static_cast<uint64_t>(st.st_dev) != r.dev || static_cast<uint64_t>(st.st_ino) != r.ino))
    return Error{"the grant " + r.path + " is no longer what the session resolved (replaced meanwhile); "
                 "not granting what it leads to now", r.path, EPERM, {}};
  bool file = !S_ISDIR(st.st_mode);
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
  // Binding an ephemeral port (port 0) stays possible; listening on a chosen port does not.
  return add(ll::net_bind_tcp, 0);
}

}  // namespace

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
  a &= landlock_handled_fs(abi);
  if (file) a &= ll::fs_file_only;  // the kernel refuses directory rights on a file
  return a;
}

Result<LandlockRuleset> build_landlock(const SandboxPlan& plan, const Capabilities& caps,
                                       const std::vector<OpenedPath>& opened) {
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

  if (plan.restrict_fs)
    for (const PathRule& r : plan.paths)
      if (auto res = add_path_rule(out.fd.get(), r, out.abi, out, opened); !res) return res.error();
  if (attr.handled_access_net != 0)
    if (auto res = add_port_rules(out.fd.get(), plan); !res) return res.error();
  return out;
}

}  // namespace lash::sandbox
