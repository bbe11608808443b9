#include "policy/review_summary.h"

#include "policy/explain.h"

namespace lash::policy {
namespace {

constexpr size_t kWidth = 100;  // a line of the summary, label included

// "a, b, c ... and 12 more" within WIDTH columns.
std::string cut_list(const List& items, size_t width) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = explain::display(items[i]);
    std::string more = " ... and " + std::to_string(items.size() - i) + " more";
    if (!out.empty() && out.size() + 2 + item.size() + (i + 1 < items.size() ? more.size() : 0) > width)
      return out + more;
    out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

std::string size_text(uint64_t v) {
  static const char* kSuffix[] = {"T", "G", "M", "K"};
  for (int i = 0; i < 4; ++i) {
    unsigned shift = unsigned(40 - 10 * i);
    if (v % (uint64_t(1) << shift) == 0) return std::to_string(v >> shift) + kSuffix[i];
  }
  return std::to_string(v);
}

bool unrestricted_fs(const Profile& p) {
  for (const auto& w : p.read_write.value)
    if (w == "/") return true;
  return false;
}

void add(Summary& out, std::string label, std::string text) { out.push_back({std::move(label), std::move(text)}); }

}  // namespace

void summary_run(const Profile& p, Summary& out) {
  constexpr size_t w = kWidth - 12;
  if (p.spawn_any.value)
    add(out, "run", p.spawn_denylist.value.empty() ? "any program"
                                                  : "any program except " + cut_list(p.spawn_denylist.value, w - 20));
  else if (p.spawn_allowlist.value.empty())
    add(out, "run", "no program (builtins and functions only)");
  else
    add(out, "run", cut_list(p.spawn_allowlist.value, w));
  // The trade-off of exec_paths, in one line (issue 15): what the job brings can run.
  if (!p.spawn_any.value && !p.exec_paths.value.empty())
    add(out, "run", "and what the job writes into " + cut_list(p.exec_paths.value, 30) +
                        ": the allowlist guards the system's programs, not code the job brings");
}

void summary_read(const Profile& p, Summary& out) {
  if (unrestricted_fs(p)) return add(out, "read", "everything");
  List parts;
  if (p.system_paths.value) parts.push_back("system files (/usr, /etc except secrets, /dev basics)");
  for (const auto& r : p.read_only.value) parts.push_back(r);
  if (parts.empty()) parts.push_back("only what it may write");
  add(out, "read", cut_list(parts, kWidth - 12) + (p.read_only.value.empty() && p.system_paths.value ? "" : ""));
}

void summary_write(const Profile& p, Summary& out) {
  if (unrestricted_fs(p)) return add(out, "write", "everything");
  List parts;
  if (!p.sandbox.value.empty()) parts.push_back(p.sandbox.value + " (sandbox)");
  for (const auto& w : p.read_write.value) parts.push_back(w);
  if (p.include_workdir.value) parts.push_back("the starting directory");
  if (p.tmpdir.value == Tmpdir::session) parts.push_back("a private $TMPDIR");
  std::string text = parts.empty() ? "nothing" : cut_list(parts, kWidth - 12);
  if (!parts.empty() && !p.protect.value.empty()) text += " (never " + cut_list(p.protect.value, 40) + ")";
  if (!p.file_redirect.value) text += "; shell redirections (>) refused";
  add(out, "write", text);
}

void summary_reach(const Profile& p, Summary& out) {
  if (!p.block_all_others.value && p.allow_hosts.value.empty() && p.allow_ports.value.empty())
    return add(out, "network", "anywhere");
  std::string text;
  if (p.allow_hosts.value.empty() && p.allow_ports.value.empty()) {
    text = "nowhere";
  } else {
    text = p.allow_hosts.value.empty() ? std::string("any host") : cut_list(p.allow_hosts.value, 60);
    if (!p.allow_ports.value.empty()) {
      List ports;
      for (const auto& r : p.allow_ports.value)
        ports.push_back(r.lo == r.hi ? std::to_string(r.lo) : std::to_string(r.lo) + "-" + std::to_string(r.hi));
      text += " on port" + std::string(ports.size() > 1 || p.allow_ports.value[0].lo != p.allow_ports.value[0].hi ? "s " : " ") +
              cut_list(ports, 30);
    }
  }
  if (!p.block_all_others.value) text += "; other traffic not blocked";
  if (p.net_enforcement.value == Enforcement::warn) text += " (warn only)";
  // Local services: only meaningful where the network is closed (else anything goes).
  auto port_list = [](const Ports& v) {
    List ports;
    for (const auto& r : v)
      ports.push_back(r.lo == r.hi ? std::to_string(r.lo) : std::to_string(r.lo) + "-" + std::to_string(r.hi));
    return cut_list(ports, 30);
  };
  if (p.block_all_others.value && !p.allow_bind.value.empty())
    text += "; may listen on " + port_list(p.allow_bind.value) + " (the session's own loopback)";
  if (p.block_all_others.value && !p.allow_loopback.value.empty())
    text += "; this host's localhost:" + port_list(p.allow_loopback.value);
  add(out, "network", text);
}

void summary_limits(const Profile& p, Summary& out) {
  List parts;
  if (p.max_memory.value) parts.push_back("memory " + size_text(p.max_memory.value));
  if (p.max_cpu_seconds.value) parts.push_back("CPU " + std::to_string(p.max_cpu_seconds.value) + " s");
  if (p.max_file_size.value) parts.push_back("file size " + size_text(p.max_file_size.value));
  if (p.max_processes.value) parts.push_back(std::to_string(p.max_processes.value) + " processes");
  if (p.max_open_files.value) parts.push_back(std::to_string(p.max_open_files.value) + " open files");
  add(out, "limits", parts.empty() ? "none" : cut_list(parts, kWidth - 12));
}

void summary_capabilities(const Profile& p, Summary& out) {
  List on;
  const std::pair<const char*, const Field<bool>*> caps[] = {
      {"file_redirect", &p.file_redirect},       {"plugin_access", &p.plugin_access},
      {"config_modify", &p.config_modify},       {"session_manage", &p.session_manage},
      {"job_control_own", &p.job_control_own},   {"job_control_others", &p.job_control_others},
      {"audit_access", &p.audit_access},         {"profile_manage", &p.profile_manage},
      {"profile_switch", &p.profile_switch},
  };
  for (const auto& [name, f] : caps)
    if (f->value) on.push_back(name);
  add(out, "builtins", on.empty() ? "no capability" : cut_list(on, kWidth - 12));
  if (p.env_mutation.value)
    add(out, "env", p.env_safelist.value.empty() ? "may change exported variables"
                                                 : "may change " + cut_list(p.env_safelist.value, 60));
  else
    add(out, "env", "exported variables are read-only");
  if (!p.env_deny.value.empty())
    add(out, "env", "never passed: " + cut_list(p.env_deny.value, 50) +
                        " (dropped from the shell's own variables too)");
}

Summary review_summary(const ResolvedProfile& r) {
  Summary s;
  summary_run(r.values, s);
  summary_read(r.values, s);
  summary_write(r.values, s);
  summary_reach(r.values, s);
  summary_limits(r.values, s);
  summary_capabilities(r.values, s);
  return s;
}

std::string summary_text(const ResolvedProfile& r, const Summary& s) {
  std::string out = "Profile: " + r.name;
  if (!r.values.description.value.empty()) out += " - " + explain::display(r.values.description.value);
  out += "\n";
  if (r.chain.size() > 1) out += "Inherits: " + r.chain_text() + "\n";
  for (const auto& l : s) {
    std::string label = "  " + l.label + ":";
    label.resize(std::max<size_t>(label.size() + 1, 12), ' ');
    out += label + l.text + "\n";
  }
  out += "Every key with where it was set: profile review --keys " + r.name +
         "; what the kernel enforces: profile review --plan " + r.name + "\n";
  return out;
}

}  // namespace lash::policy
