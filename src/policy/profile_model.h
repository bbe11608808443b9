// The profile model: every key of profiles.md as a typed value with its set-bit and
// provenance. Only keys whose set-bit is true override a parent (profiles.md).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace lash::policy {

// Where a profile file came from, in search order.
enum class Source : uint8_t { user, system, builtin };
std::string_view source_name(Source s);

// The file and line that set a key, or base (file empty) when no profile set it.
struct Provenance {
  std::string file;
  int line = 0;
  std::string profile;
  bool is_base() const { return file.empty(); }
  std::string text() const;  // "FILE:LINE" or "base"
};

template <class T>
struct Field {
  T value{};
  bool set = false;
  Provenance from;
};

enum class Tmpdir : uint8_t { none, session };
enum class Enforcement : uint8_t { enforce, warn };
struct PortRange {
  uint16_t lo = 0, hi = 0;
  bool operator==(const PortRange&) const = default;
};
using List = std::vector<std::string>;
using Ports = std::vector<PortRange>;

// A field holding a base value other than T{}.
template <class T>
Field<T> base_value(T v) {
  Field<T> f;
  f.value = std::move(v);
  return f;
}

// Defaults are the base column of profiles.md: deny by default.
struct Profile {
  Field<std::string> description;
  Field<std::string> inherit_from;
  // [process]
  Field<bool> spawn_any;
  Field<List> spawn_allowlist, spawn_denylist;
  // Trees whose programs may run although they are not in the allowlist (the places a
  // build writes its test programs): ".", "~/...", absolute paths, or "$TMPDIR".
  Field<List> exec_paths;
  // [filesystem]
  Field<std::string> sandbox;  // empty: none
  Field<List> read_only, read_write;
  Field<bool> include_workdir;
  Field<Tmpdir> tmpdir;
  Field<List> protect = base_value<List>({".git/hooks", ".git/config"});
  Field<bool> system_paths = base_value(true);
  Field<Enforcement> fs_enforcement;
  // [network]
  Field<List> allow_hosts;  // normalized patterns (lowercase, no trailing dot)
  Field<Ports> allow_ports;
  Field<bool> block_all_others = base_value(true);
  Field<Enforcement> net_enforcement;
  // Local services (network.md). allow_bind: TCP ports the session's programs may
  // listen on, inside the session's own network namespace, and connect to there on
  // loopback (a dev server and its tests). allow_loopback: TCP ports of this host's own
  // loopback (127.0.0.1, ::1) the session may connect to through the relay (a test
  // database on the host); no name and no other address gets them.
  Field<Ports> allow_bind, allow_loopback;
  // [resources]  0 means unlimited
  Field<uint64_t> max_memory, max_cpu_seconds, max_file_size, max_processes, max_open_files;
  // [environment]
  Field<List> env_deny, env_force, env_pass;  // env_pass unset: pass all but deny
  Field<bool> env_mutation;
  Field<List> env_safelist;
  // [capabilities]
  Field<bool> file_redirect, plugin_access;
  Field<List> plugin_allowlist;
  Field<bool> config_modify, session_manage, job_control_own, job_control_others, audit_access,
      profile_manage, profile_switch;
  // [monitoring]
  Field<bool> monitoring_enabled = base_value(true);
  Field<uint64_t> max_denials;   // the session ends after this many refusals (0: never)
  Field<uint64_t> idle_timeout;  // seconds an interactive shell may wait at its prompt (0: no limit)
};

// How a key's text is checked and stored.
enum class Kind : uint8_t {
  text, name, boolean, path, path_list, relpath_list, program_list, host_list, port_list,
  size, count, exec_path_list, env_pattern_list, env_force_list, plugin_list, tmpdir, enforcement
};

using FieldPtr = std::variant<Field<std::string> Profile::*, Field<bool> Profile::*,
                              Field<List> Profile::*, Field<uint64_t> Profile::*,
                              Field<Tmpdir> Profile::*, Field<Enforcement> Profile::*,
                              Field<Ports> Profile::*>;

struct KeyInfo {
  std::string_view id;       // "process.spawn_allowlist"
  Kind kind;
  FieldPtr field;
  std::string_view enforced;  // which layer enforces it (shown by profile review)
  std::string_view section() const { return id.substr(0, id.find('.')); }
  std::string_view key() const { return id.substr(id.find('.') + 1); }
};

std::span<const KeyInfo> all_keys();
std::span<const std::string_view> all_sections();
const KeyInfo* find_key(std::string_view section, std::string_view key);
const KeyInfo* find_key(std::string_view id);

// One profile file as loaded (before inheritance).
struct LoadedProfile {
  std::string name;
  Source source = Source::builtin;
  std::string path;
  Profile profile;
};

// A profile with its inheritance applied. chain[0] is the profile itself, then its
// parent, up to the root.
struct ChainLink {
  std::string name;
  Source source;
  std::string path;
};
struct ResolvedProfile {
  std::string name;
  std::vector<ChainLink> chain;
  Profile values;
  std::string chain_text() const;  // "ci -> default"
};

}  // namespace lash::policy
