// The text form of a SandboxPlan for `profile review`: every grant with where it
// came from, the limits, and what this kernel will not enforce.
#include "sandbox/plan.h"

namespace lash::sandbox {

std::string rights_string(unsigned r) {
  std::string s;
  s += (r & rights::read) ? 'r' : (r & rights::list) ? 'l' : '-';
  s += (r & rights::write) ? 'w' : '-';
  s += (r & rights::execute) ? 'x' : '-';
  if (r & rights::ioctl_dev) s += 'd';
  return s;
}

namespace {

std::string limit(uint64_t v) { return v == 0 ? "unlimited" : std::to_string(v); }

}  // namespace

std::vector<std::string> plan_lines(const SandboxPlan& p) {
  std::vector<std::string> out;
  if (!p.restrict_fs) {
    out.push_back("filesystem: unrestricted");
  } else {
    out.push_back(std::string("filesystem: restricted (enforcement = ") +
                  (p.fs_enforcement == Enforcement::enforce ? "enforce" : "warn") + ")");
    for (const PathRule& r : p.paths) {
      std::string line = "  " + rights_string(r.rights) + " " + r.path +
                         "  [" + r.origin + "]";
      if (!r.note.empty()) line += " " + r.note;
      out.push_back(line);
    }
  }
  for (const std::string& pr : p.protect) out.push_back("  protect (read-only inside writable grants): " + pr);
  for (const std::string& r : p.fs_refusals) out.push_back("  cannot be enforced (commands refused under enforce): " + r);
  if (p.mask_unix_sockets)
    out.push_back("  unix sockets outside the grants (in /run, /tmp, /dev/shm, $XDG_RUNTIME_DIR) masked at start");
  for (const std::string& n : p.noexec) out.push_back("  noexec (nothing written there can run): " + n);
  out.push_back(std::string("programs: ") + (p.spawn_any ? "any" : "allowlist only (per-file exec grants above)"));
  if (p.deny_memfd_exec) out.push_back("  memfd_create, and execveat with AT_EMPTY_PATH, refused");
  if (!p.empty())
    out.push_back("processes: the session's own pid and IPC namespaces (processes outside do not exist for it; "
                  "everything it started ends with it)");
  for (std::string& l : network_relay_lines(p)) out.push_back(std::move(l));
  if (!p.restrict_net) {
    if (!p.net_relay) out.push_back("network: unrestricted by the sandbox");
  } else {
    std::string ports;
    for (const PortRange& r : p.connect_ports)
      ports += (ports.empty() ? "" : ",") +
               (r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last));
    out.push_back(std::string(p.net_relay ? "  " : "") + "network: TCP connect only to ports " +
                  (ports.empty() ? std::string("(none)") : ports) + " (Landlock, a second wall)");
  }
  auto port_text = [](const std::vector<PortRange>& v) {
    std::string s;
    for (const PortRange& r : v)
      s += (s.empty() ? "" : ",") +
           (r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last));
    return s;
  };
  if (p.net_relay) {
    out.push_back("  listen: TCP port 0 (any free port)" +
                  (p.bind_ports.empty() ? std::string()
                                        : " and " + port_text(p.bind_ports) +
                                              " (allow_bind; the session's own loopback, unseen by this host)"));
    if (!p.host_loopback_ports.empty())
      out.push_back("  this host's loopback (127.0.0.1, ::1): ports " + port_text(p.host_loopback_ports) +
                    " through the relay (allow_loopback); no name and no other address reaches them");
  }
  out.push_back("limits: memory " + limit(p.limits.memory) + ", cpu seconds " + limit(p.limits.cpu_seconds) +
                ", file size " + limit(p.limits.file_size) + ", processes " + limit(p.limits.processes) +
                ", open files " + limit(p.limits.open_files));
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? std::string("(none)") : s;
  };
  out.push_back("environment: deny " + join(p.env_deny) + "; force " + join(p.env_force) + "; pass " +
                (p.env_pass_set ? join(p.env_pass) : std::string("all but deny")));
  std::string hard;
  if (p.no_new_privs) hard += " no_new_privs";
  if (p.seccomp) hard += " seccomp";
  if (p.drop_capabilities) hard += " drop-capabilities";
  if (p.scope_signals) hard += " signal-scope";
  if (p.scope_abstract_unix) hard += " abstract-unix-scope";
  if (p.close_fds) hard += " close-fds";
  out.push_back("hardening:" + (hard.empty() ? std::string(" none") : hard));
  for (const std::string& w : p.warnings) out.push_back("warning: " + w);
  for (const std::string& u : p.unenforced) out.push_back("not enforced by the kernel: " + u);
  return out;
}

}  // namespace lash::sandbox
