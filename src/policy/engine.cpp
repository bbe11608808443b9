#include "policy/engine.h"

#include "policy/dns_question.h"
#include "policy/explain.h"
#include "policy/paths.h"
#include "policy/wrapper_chain.h"

namespace lash::policy {
namespace {

// Devices of the system baseline (enforcement.md) that writes may always target when
// system_paths = true: discarding output is not writing a file.
bool baseline_device(std::string_view p) {
  static constexpr std::string_view kDevs[] = {"/dev/null", "/dev/zero", "/dev/full",
                                               "/dev/random", "/dev/urandom", "/dev/tty",
                                               "/dev/ptmx"};
  for (auto d : kDevs)
    if (p == d) return true;
  return paths::beneath(p, "/dev/pts") && p != "/dev/pts";
}

bool bare(std::string_view s) { return s.find('/') == std::string_view::npos; }

const Provenance* provenance_of(const Profile& p, const KeyInfo& k) {
  return std::visit([&](auto member) { return &(p.*member).from; }, k.field);
}

std::string ports_text(const Profile& p) {
  if (p.allow_ports.value.empty()) return p.allow_hosts.value.empty() ? "none" : "80, 443";
  std::string out;
  for (const auto& r : p.allow_ports.value) {
    if (!out.empty()) out += ", ";
    out += std::to_string(r.lo);
    if (r.hi != r.lo) out += "-" + std::to_string(r.hi);
  }
  return out;
}

bool in_ports(const Ports& ports, uint16_t port) {
  for (const auto& r : ports)
    if (port >= r.lo && port <= r.hi) return true;
  return false;
}

// The port a DNS question is decided by: 443 when allowed (allow_ports empty or holding
// it), else the first allowed one. A name is resolved when a connection to it on an
// allowed port would be allowed.
uint16_t question_port(const Profile& p) {
  bool has_443 = p.allow_ports.value.empty();
  for (const auto& r : p.allow_ports.value) has_443 = has_443 || (r.lo <= 443 && 443 <= r.hi);
  return has_443 ? 443 : p.allow_ports.value.front().lo;
}

// What a destination address is on this host's loopback (IPv4-mapped counts as IPv4):
// - this_host: 127.0.0.1 or ::1, the only ones allow_loopback opens; the unspecified
//   0.0.0.0 and :: count as these, because Linux connects a socket aimed at them to
//   127.0.0.1 / ::1 (the relay then sees that address, never the unspecified one, so the
//   dry run must answer as for 127.0.0.1);
// - other: the rest of 127.0.0.0/8, where other services bind apart (127.0.0.53,
//   127.1.2.3): nothing opens it;
// - none: any other address, or no address.
enum class Loopback { none, this_host, other };
Loopback loopback_kind(std::string_view ip) {
  if (ip.empty() || ip.find('/') != std::string_view::npos) return Loopback::none;
  auto a = parse_ip_net(ip);
  if (!a) return Loopback::none;
  const auto& b = a->addr;
  if (a->v6) {
    bool zero = true;
    for (size_t i = 0; i < 15; ++i) zero = zero && b[i] == 0;
    return zero && (b[15] == 0 || b[15] == 1) ? Loopback::this_host : Loopback::none;
  }
  if (b[1] == 0 && b[2] == 0 && ((b[0] == 0 && b[3] == 0) || (b[0] == 127 && b[3] == 1))) return Loopback::this_host;
  return b[0] == 127 ? Loopback::other : Loopback::none;
}

std::string loopback_address_not_allowed(std::string_view ip) {
  return "allow_loopback opens only this host's 127.0.0.1 and ::1; " + std::string(ip) +
         " is another address of the loopback (another service), which no key opens. Connect to 127.0.0.1 (or "
         "::1) on a port in allow_loopback.";
}

std::string local_ports_text(const Ports& ports) {
  std::string out;
  for (const auto& r : ports) {
    if (!out.empty()) out += ", ";
    out += std::to_string(r.lo);
    if (r.hi != r.lo) out += "-" + std::to_string(r.hi);
  }
  return out.empty() ? "none" : out;
}

}  // namespace

Engine::Engine(std::shared_ptr<const ResolvedProfile> profile, SessionFacts facts)
    : profile_(std::move(profile)), facts_(std::move(facts)) {
  const Profile& p = profile_->values;
  for (const auto& e : p.spawn_allowlist.value)
    (bare(e) ? allow_names_ : allow_paths_).insert(bare(e) ? e : paths::normalize(e));
  allow_paths_.insert(facts_.allow_real.begin(), facts_.allow_real.end());
  for (const auto& e : p.spawn_denylist.value)
    (bare(e) ? deny_names_ : deny_paths_).insert(bare(e) ? e : paths::normalize(e));
  deny_paths_.insert(facts_.deny_real.begin(), facts_.deny_real.end());
  for (const auto& r : facts_.writable_roots) root_paths_.push_back(r.path);
  safelist_ = EnvPatterns(p.env_safelist.value);
  plugins_.insert(p.plugin_allowlist.value.begin(), p.plugin_allowlist.value.end());
  hosts_ = HostMatcher(p.allow_hosts.value);
  ports_text_ = ports_text(p);
  fs_unrestricted_ = filesystem_unrestricted(p);
}

KeyRef Engine::ref(const char* key) const {
  const KeyInfo* k = find_key(key);
  const Provenance* from = k ? provenance_of(profile_->values, *k) : nullptr;
  if (!from) return KeyRef{key, {}, 0, {}};
  return KeyRef{key, from->file, from->line, from->profile};
}

Decision Engine::allow(const char* key) const {
  Decision d;
  d.verdict = Verdict::allow;
  if (key) d.decided_by = ref(key);
  return d;
}

Decision Engine::deny(const char* key, const Action& a, std::string suggestion) const {
  Decision d;
  d.verdict = Verdict::deny;
  d.decided_by = ref(key);
  d.problem = explain::problem(profile_->name, a);
  d.suggestion = std::move(suggestion);
  return d;
}

Decision Engine::decide(const Action& action) const {
  return std::visit(
      [&](const auto& a) -> Decision {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, Spawn>) return spawn(a);
        else if constexpr (std::is_same_v<T, Redirect>) return redirect(a);
        else if constexpr (std::is_same_v<T, EnvChange>) return env(a);
        else if constexpr (std::is_same_v<T, Builtin>) return builtin(a);
        else if constexpr (std::is_same_v<T, PluginCall>) return plugin(a);
        else return network(a);
      },
      action);
}

// Denylist first (by the name as written, the program's own name, and its real path),
// then spawn_any, then the allowlist by real path, then exec_paths. A bare name whose program was not
// found is matched by name (it will then fail as "not found", not run).
Decision Engine::spawn(const Spawn& a) const {
  const std::string& rp = a.resolved_path;
  std::string name(paths::basename(a.argv0));
  bool denied = deny_names_.count(name) || deny_paths_.count(a.argv0) ||
                (!rp.empty() && (deny_paths_.count(rp) ||
                                 deny_names_.count(std::string(paths::basename(rp)))));
  if (denied) return deny("process.spawn_denylist", a, explain::in_denylist(a.argv0));
  if (profile_->values.spawn_any.value) return allow("process.spawn_any");
  bool allowed = rp.empty() ? (bare(a.argv0) ? allow_names_.count(a.argv0) > 0
                                             : allow_paths_.count(a.argv0) > 0)
                            : allow_paths_.count(rp) > 0;
  if (allowed && !rp.empty())
    if (auto gap = facts_.wrapper_gaps.find(rp); gap != facts_.wrapper_gaps.end())
      return deny("process.spawn_allowlist", a,
                  explain::wrapper_gap(a.argv0, chain_text(gap->second), gap->second.missing));
  if (allowed) return allow("process.spawn_allowlist");
  // A program the job wrote (or unpacked) under an exec path: by its real path, so a
  // symlink there to a system program outside the allowlist is not let through.
  if (!rp.empty())
    for (const auto& root : facts_.exec_roots)
      if (paths::beneath(rp, root.path)) return exec_path_script(a);
  if (!rp.empty() && bare(a.argv0) && allow_names_.count(a.argv0)) {
    auto it = facts_.allow_real_by_name.find(a.argv0);
    std::string allowed_path = it == facts_.allow_real_by_name.end() ? "" : it->second;
    return deny("process.spawn_allowlist", a,
                explain::allowlist_mismatch(a.argv0, allowed_path, rp));
  }
  return deny("process.spawn_allowlist", a, explain::not_in_allowlist(a.argv0));
}

// A program under an exec path; a script among them runs what its #! line names,
// which must be allowed too (the kernel would refuse it with a bare EACCES).
Decision Engine::exec_path_script(const Spawn& a) const {
  std::string chain = a.resolved_path;
  for (const auto& interp : a.interpreters) {
    chain += " -> " + interp;
    bool ok = allow_paths_.count(interp) > 0;
    for (const auto& root : facts_.exec_roots)
      if (paths::beneath(interp, root.path)) ok = true;
    bool denied = deny_paths_.count(interp) || deny_names_.count(std::string(paths::basename(interp)));
    if (denied)
      return deny("process.spawn_denylist", a, explain::script_interpreter_gap(a.argv0, chain, interp, true));
    if (!ok) return deny("process.spawn_allowlist", a, explain::script_interpreter_gap(a.argv0, chain, interp, false));
  }
  return allow("process.exec_paths");
}

// Reads are not checked here (the kernel enforces read_only). Writes need file_redirect
// and, unless `read_write = /`, a target beneath a writable root and outside `protect`.
Decision Engine::redirect(const Redirect& a) const {
  const Profile& p = profile_->values;
  if (!is_write(a.mode)) return allow(nullptr);
  if (p.system_paths.value && baseline_device(a.path)) return allow("filesystem.system_paths");
  if (!p.file_redirect.value)
    return deny("capabilities.file_redirect", a, explain::no_file_redirect());
  if (fs_unrestricted_) return allow("filesystem.read_write");
  for (const auto& root : facts_.writable_roots) {
    if (!paths::beneath(a.path, root.path)) continue;
    std::string_view rel = a.path;
    rel.remove_prefix(root.path == "/" ? 1 : std::min(rel.size(), root.path.size() + 1));
    for (const auto& prot : p.protect.value)
      if (paths::beneath("/" + std::string(rel), paths::normalize("/" + prot)))
        return deny("filesystem.protect", a, explain::protected_path(prot));
  }
  for (const auto& root : facts_.writable_roots)
    if (paths::beneath(a.path, root.path)) return allow(root.key.c_str());
  return deny("filesystem.read_write", a, explain::outside_writable(a.path, root_paths_));
}

Decision Engine::env(const EnvChange& a) const {
  const Profile& p = profile_->values;
  if (!p.env_mutation.value) return deny("environment.mutation", a, explain::no_env_mutation());
  if (safelist_.empty()) return allow("environment.mutation");
  if (!safelist_.matches(a.name))
    return deny("environment.safelist", a, explain::not_in_safelist(a.name));
  return allow("environment.safelist");
}

Decision Engine::builtin(const Builtin& a) const {
  const Profile& p = profile_->values;
  const Field<bool>* f = nullptr;
  switch (a.capability) {
    case Capability::plugin_access: f = &p.plugin_access; break;
    case Capability::config_modify: f = &p.config_modify; break;
    case Capability::session_manage: f = &p.session_manage; break;
    case Capability::job_control_own: f = &p.job_control_own; break;
    case Capability::job_control_others: f = &p.job_control_others; break;
    case Capability::audit_access: f = &p.audit_access; break;
    case Capability::profile_manage: f = &p.profile_manage; break;
    case Capability::profile_switch: f = &p.profile_switch; break;
  }
  std::string key = "capabilities." + std::string(capability_name(a.capability));
  if (f && f->value) return allow(key.c_str());
  return deny(key.c_str(), a, explain::capability_needed(target_of(Action{a}), a.capability));
}

Decision Engine::plugin(const PluginCall& a) const {
  const Profile& p = profile_->values;
  if (!p.plugin_access.value)
    return deny("capabilities.plugin_access", a, explain::no_plugin_access());
  if (plugins_.empty()) return allow("capabilities.plugin_access");
  if (!plugins_.count(a.plugin))
    return deny("capabilities.plugin_allowlist", a, explain::plugin_not_allowed(a.plugin));
  return allow("capabilities.plugin_allowlist");
}

// network.md: a flow is allowed when its name (host, and the SNI when there is one) or
// its address matches allow_hosts, and its port is allowed (80 and 443 when allow_ports
// is empty). An IP-literal SNI counts as no name. block_all_others = false allows what
// matches no rule.
Decision Engine::network(const NetConnect& a) const {
  const Profile& p = profile_->values;
  bool no_rules = p.allow_hosts.value.empty() && p.allow_ports.value.empty();
  if (no_rules && !p.block_all_others.value) return allow("network.block_all_others");
  if (a.udp) {
    // Not the relay's to allow: the namespace drops it, under warn too (no advisory).
    if (!p.block_all_others.value) return allow("network.block_all_others");
    return deny("network.block_all_others", a, explain::udp_dropped(a.port));
  }
  bool sni_name = !a.sni.empty() && !is_ip_literal(a.sni);
  bool name_ok = !a.host.empty() && hosts_.match_name(a.host);
  // The relay passes in HOST the name lash's DNS gave this IP for (or the IP literal
  // when it gave none): the name the client claims must be that one.
  if (sni_name)
    name_ok = hosts_.match_name(a.sni) &&
              (a.host.empty() || (name_ok && normalize_host(a.host) == normalize_host(a.sni)));
  else if (!a.sni.empty()) name_ok = false;  // IP-literal SNI: only an IP rule allows it
  bool host_ok = name_ok || (!a.ip.empty() && hosts_.match_ip(a.ip));
  // A DNS question has no port of its own: decided as a connection on an allowed one.
  uint16_t port = is_dns_question(a) ? question_port(p) : a.port;
  bool port_ok = false;
  if (p.allow_ports.value.empty())
    port_ok = !p.allow_hosts.value.empty() && (port == 80 || port == 443);
  for (const auto& r : p.allow_ports.value) port_ok = port_ok || (port >= r.lo && port <= r.hi);
  // This host's loopback, by address and port alone (the relay never gives a name to
  // a loopback address): allow_loopback, not allow_hosts, opens it, and only on
  // 127.0.0.1 / ::1 (0.0.0.0 and :: are those for Linux). The rest of 127.0.0.0/8 is
  // other services of this host: nothing opens it, whatever the port.
  Loopback lo = loopback_kind(a.ip);
  bool loopback_port = in_ports(p.allow_loopback.value, port);
  if (lo == Loopback::this_host && loopback_port) return allow("network.allow_loopback");
  if (lo == Loopback::none && host_ok && port_ok) return allow("network.allow_hosts");
  if (!p.block_all_others.value) return allow("network.block_all_others");
  Decision d;
  if (lo == Loopback::other)
    d = deny("network.allow_loopback", a, loopback_address_not_allowed(a.ip));
  else if (lo == Loopback::this_host)
    d = deny("network.allow_loopback", a, explain::loopback_not_allowed(port, local_ports_text(p.allow_loopback.value)));
  else if (p.allow_hosts.value.empty())
    d = deny("network.allow_hosts", a, explain::network_closed());
  else if (!host_ok)
    d = deny("network.allow_hosts", a,
             explain::host_not_allowed(!a.sni.empty() ? a.sni : !a.host.empty() ? a.host : a.ip));
  else
    d = deny("network.allow_ports", a, explain::port_not_allowed(port, ports_text_));
  d.advisory = p.net_enforcement.value == Enforcement::warn;
  return d;
}

}  // namespace lash::policy
