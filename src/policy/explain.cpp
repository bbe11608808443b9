#include "policy/explain.h"
#include "policy/dns_question.h"

#include <cstdio>

#include "policy/profile_model.h"

namespace lash::policy::explain {
namespace {

// The engine says what blocked the action; what the user can do about it depends on
// the session (may it switch? did lash.conf assign the profile?), which the session
// states once (set_session_advice) and refusal_lines appends.
std::string& session_advice() {
  static std::string advice = "Change the key in the profile, or start lash with another profile (lash -p NAME).";
  return advice;
}

std::string q(std::string_view s) { return "'" + display(s) + "'"; }

struct Verb {
  std::string operator()(const Spawn& s) const { return "run " + q(s.argv0); }
  std::string operator()(const Redirect& r) const {
    return (is_write(r.mode) ? "write to " : "read from ") + q(r.path);
  }
  std::string operator()(const EnvChange& e) const {
    return "change the exported variable " + q(e.name);
  }
  std::string operator()(const PluginCall& p) const {
    return "call plugin " + q(target_of(Action{p}));
  }
  std::string operator()(const Builtin& b) const { return "use " + q(target_of(Action{b})); }
  std::string operator()(const NetConnect& n) const {
    std::string host = !n.host.empty() ? n.host : !n.sni.empty() ? n.sni : n.ip;
    if (is_dns_question(n)) return "resolve " + q(host);
    return (n.udp ? "send UDP to " : "connect to ") + q(host) + " on port " + std::to_string(n.port);
  }
};

}  // namespace

std::string display(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

std::string problem(std::string_view profile, const Action& action) {
  return "This session (profile: " + std::string(profile) + ") cannot " +
         std::visit(Verb{}, action) + ".";
}

std::string not_in_allowlist(std::string_view argv0) {
  return q(argv0) + " is not in the allowlist.";
}

std::string allowlist_mismatch(std::string_view name, std::string_view allowed,
                               std::string_view actual) {
  if (allowed.empty())
    return q(name) + " is in the allowlist but was not found on PATH when the session started.";
  return q(name) + " is allowed as " + display(allowed) + " by the allowlist, but this " + q(name) +
         " is " + display(actual) + ". Run " + display(allowed) +
         ".";
}

std::string wrapper_gap(std::string_view argv0, std::string_view chain, std::string_view missing) {
  return q(argv0) + " is a wrapper (" + display(chain) + ") that needs " + display(missing) +
         ", which is not allowed: add " + display(missing) +
         " to [process] spawn_allowlist, or put the real program first on PATH.";
}

std::string script_interpreter_gap(std::string_view argv0, std::string_view chain, std::string_view missing,
                                   bool denylisted) {
  return q(argv0) + " is a script (" + display(chain) + ") whose #! line runs " + display(missing) +
         (denylisted ? ", which is in [process] spawn_denylist."
                     : ", which is not allowed: add " + display(missing) + " to [process] spawn_allowlist.");
}

std::string in_denylist(std::string_view argv0) {
  return q(argv0) + " is in the denylist.";
}

std::string no_file_redirect() {
  return "Redirecting output to files is turned off (file_redirect).";
}

std::string outside_writable(std::string_view path, const std::vector<std::string>& roots) {
  if (roots.empty())
    return "Nothing is writable in this profile (sandbox, read_write, tmpdir, include_workdir).";
  std::string list;
  for (size_t i = 0; i < roots.size() && i < 3; ++i) list += (i ? ", " : "") + display(roots[i]);
  if (roots.size() > 3) list += ", ...";
  return q(path) + " is outside the writable paths (sandbox, read_write, tmpdir, " +
         "include_workdir). Write beneath " + list + ".";
}

std::string protected_path(std::string_view entry) {
  return q(entry) + " is kept read-only inside writable paths (protect).";
}

std::string no_env_mutation() {
  return "Changing the exported environment is turned off (mutation).";
}

std::string not_in_safelist(std::string_view name) {
  return q(name) + " is not in the environment safelist.";
}

std::string capability_needed(std::string_view what, Capability cap) {
  return q(what) + " needs the " + std::string(capability_name(cap)) + " capability.";
}

std::string no_plugin_access() {
  return "Plugin calls are turned off (plugin_access).";
}

std::string plugin_not_allowed(std::string_view plugin) {
  return q(plugin) + " is not in the plugin allowlist.";
}

std::string host_not_allowed(std::string_view host) {
  return q(host) + " is not in allow_hosts.";
}

std::string port_not_allowed(uint16_t port, std::string_view allowed) {
  return "Port " + std::to_string(port) + " is not in allow_ports (" + std::string(allowed) +
         ").";
}

std::string loopback_not_allowed(uint16_t port, std::string_view allowed) {
  return "Port " + std::to_string(port) + " of this host's loopback is not in allow_loopback (" +
         std::string(allowed) + "); add it there to reach a local service without opening the network.";
}

std::string loopback_address_not_allowed(std::string_view ip) {
  return "allow_loopback opens only this host's 127.0.0.1 and ::1; " + q(ip) +
         " is another address of the loopback, which no key opens. Connect to 127.0.0.1 (or ::1) on a port in "
         "allow_loopback.";
}

std::string udp_dropped(uint16_t port) {
  return std::string("UDP other than DNS never leaves the session's network namespace") +
         (port == 443 ? " (port 443 is rejected at once, so QUIC clients fall back to TCP)." : " (dropped).");
}

std::string network_closed() {
  return "This profile allows no network connections (allow_hosts is empty, "
         "block_all_others = true).";
}

void set_session_advice(std::string advice) { session_advice() = std::move(advice); }

std::string refusal_lines(const Decision& d) {
  // Only a refusal a profile key decided gets the key and the advice: a sandbox the
  // kernel refused, an audit log that cannot be written or a process limit reached
  // say themselves what to do.
  std::string where, advice;
  const KeyRef& k = d.decided_by;
  const KeyInfo* key = find_key(k.key);
  if (key && key->section() != "resources") {
    where = " Decided by " + k.key + (k.file.empty() ? " (not set: the deny-by-default base)"
                                                     : " (set at " + k.source_text() + ")") + ".";
    advice = session_advice();
  }
  return "Problem: " + d.problem + "\nSuggestion: " + d.suggestion + where + (advice.empty() ? "" : " " + advice) +
         "\n";
}

std::string action_line(const Action& a, const Decision& d) {
  std::string out(verdict_name(d.verdict));
  out.resize(8, ' ');
  out += std::string(kind_name(a)) + " " + display(target_of(a));
  if (const auto* s = std::get_if<Spawn>(&a); s && !s->resolved_path.empty())
    out += " -> " + display(s->resolved_path);
  if (const auto* r = std::get_if<Redirect>(&a)) out += " (" + std::string(redirect_op(r->mode)) + ")";
  if (!d.decided_by.key.empty())
    out += "  [" + d.decided_by.key + " " + d.decided_by.source_text() + "]";
  return out;
}

}  // namespace lash::policy::explain
