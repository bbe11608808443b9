#include "policy/profile_model.h"

namespace lash::policy {

std::string_view source_name(Source s) {
  switch (s) {
    case Source::user: return "user";
    case Source::system: return "system";
    case Source::builtin: return "builtin";
  }
  return "?";
}

std::string Provenance::text() const {
  if (is_base()) return "base";
  return file + ":" + std::to_string(line);
}

std::string ResolvedProfile::chain_text() const {
  std::string out;
  for (const auto& l : chain) {
    if (!out.empty()) out += " -> ";
    out += l.name;
  }
  return out;
}

namespace {
using P = Profile;
constexpr std::string_view kBoth = "kernel + policy layer";
constexpr std::string_view kKernel = "kernel";
constexpr std::string_view kPolicy = "policy layer only";
constexpr std::string_view kLaunch = "launcher (child environment)";
constexpr std::string_view kNone = "-";

constexpr KeyInfo kKeys[] = {
    {"profile.description", Kind::text, &P::description, kNone},
    {"inherit.from", Kind::name, &P::inherit_from, kNone},
    {"process.spawn_any", Kind::boolean, &P::spawn_any, kBoth},
    {"process.spawn_allowlist", Kind::program_list, &P::spawn_allowlist, kBoth},
    {"process.spawn_denylist", Kind::program_list, &P::spawn_denylist, kPolicy},
    {"process.exec_paths", Kind::exec_path_list, &P::exec_paths, kBoth},
    {"filesystem.sandbox", Kind::path, &P::sandbox, kBoth},
    {"filesystem.read_only", Kind::path_list, &P::read_only, kKernel},
    {"filesystem.read_write", Kind::path_list, &P::read_write, kBoth},
    {"filesystem.include_workdir", Kind::boolean, &P::include_workdir, kBoth},
    {"filesystem.tmpdir", Kind::tmpdir, &P::tmpdir, kBoth},
    {"filesystem.protect", Kind::relpath_list, &P::protect, kBoth},
    {"filesystem.system_paths", Kind::boolean, &P::system_paths, kBoth},
    {"filesystem.enforcement", Kind::enforcement, &P::fs_enforcement, kKernel},
    {"network.allow_hosts", Kind::host_list, &P::allow_hosts, kKernel},
    {"network.allow_ports", Kind::port_list, &P::allow_ports, kKernel},
    {"network.block_all_others", Kind::boolean, &P::block_all_others, kKernel},
    {"network.enforcement", Kind::enforcement, &P::net_enforcement, kKernel},
    {"network.allow_bind", Kind::port_list, &P::allow_bind, kKernel},
    {"network.allow_loopback", Kind::port_list, &P::allow_loopback, kKernel},
    {"resources.max_memory", Kind::size, &P::max_memory, kKernel},
    {"resources.max_cpu_seconds", Kind::count, &P::max_cpu_seconds, kKernel},
    {"resources.max_file_size", Kind::size, &P::max_file_size, kKernel},
    {"resources.max_processes", Kind::count, &P::max_processes, kKernel},
    {"resources.max_open_files", Kind::count, &P::max_open_files, kKernel},
    {"environment.deny", Kind::env_pattern_list, &P::env_deny, kLaunch},
    {"environment.force", Kind::env_force_list, &P::env_force, kLaunch},
    {"environment.pass", Kind::env_pattern_list, &P::env_pass, kLaunch},
    {"environment.mutation", Kind::boolean, &P::env_mutation, kPolicy},
    {"environment.safelist", Kind::env_pattern_list, &P::env_safelist, kPolicy},
    {"capabilities.file_redirect", Kind::boolean, &P::file_redirect, kBoth},
    {"capabilities.plugin_access", Kind::boolean, &P::plugin_access, kPolicy},
    {"capabilities.plugin_allowlist", Kind::plugin_list, &P::plugin_allowlist, kPolicy},
    {"capabilities.config_modify", Kind::boolean, &P::config_modify, kPolicy},
    {"capabilities.session_manage", Kind::boolean, &P::session_manage, kPolicy},
    {"capabilities.job_control_own", Kind::boolean, &P::job_control_own, kPolicy},
    {"capabilities.job_control_others", Kind::boolean, &P::job_control_others, kPolicy},
    {"capabilities.audit_access", Kind::boolean, &P::audit_access, kPolicy},
    {"capabilities.profile_manage", Kind::boolean, &P::profile_manage, kPolicy},
    {"capabilities.profile_switch", Kind::boolean, &P::profile_switch, kPolicy},
    {"monitoring.enabled", Kind::boolean, &P::monitoring_enabled, kNone},
    {"monitoring.max_denials", Kind::count, &P::max_denials, kPolicy},
    {"monitoring.idle_timeout", Kind::count, &P::idle_timeout, kPolicy},
};

constexpr std::string_view kSections[] = {"profile",     "inherit",      "process",
                                          "filesystem",  "network",      "resources",
                                          "environment", "capabilities", "monitoring"};
}  // namespace

std::span<const KeyInfo> all_keys() { return kKeys; }
std::span<const std::string_view> all_sections() { return kSections; }

const KeyInfo* find_key(std::string_view id) {
  for (const auto& k : kKeys)
    if (k.id == id) return &k;
  return nullptr;
}

const KeyInfo* find_key(std::string_view section, std::string_view key) {
  for (const auto& k : kKeys)
    if (k.section() == section && k.key() == key) return &k;
  return nullptr;
}

}  // namespace lash::policy
