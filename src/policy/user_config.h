// lash's settings (cli.md "Config keys"): $LASH_HOME/config and its system counterpart
// <system_dir>/lash.conf, both INI, where KEY "a.b" is key b of section [a]. A key the
// system file sets (trusted as for [users]/[groups]) wins over the user's.
//
//   profile.default  profile.auto_detect  prompt.ps1  history.size  history.file_size
//   plugin.timeout   audit.syslog
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace lash::policy {

struct ConfigKeyInfo {
  std::string_view name;
  std::string_view kind;  // "profile", "bool", "text", "count", "seconds"
  std::string_view help;
};
const std::vector<ConfigKeyInfo>& config_keys();
const ConfigKeyInfo* find_config_key(std::string_view key);
// [profile], [prompt], ...: sections of config keys (lash.conf skips them).
bool is_config_section(std::string_view section);

// The value normalized, or an Error naming what is expected.
Result<std::string> validate_config_value(std::string_view key, std::string_view value);

struct ConfigValue {
  std::string key, value, file;
  int line = 0;
  bool system = false;  // from lash.conf
};

// Every known key set in TEXT (FILE for messages); WARNINGS get unknown keys and bad
// values, which are skipped.
std::vector<ConfigValue> parse_config(std::string_view text, const std::string& file, bool system,
                                      std::vector<std::string>* warnings);

// The values in effect: the user's file, and the trusted system file's keys over them.
std::vector<ConfigValue> effective_config(std::vector<std::string>* warnings = nullptr);
std::optional<ConfigValue> config_value(std::string_view key);
std::string user_config_path();  // $LASH_HOME/config

// TEXT with KEY set to VALUE (or removed when VALUE is nullopt), every other line kept.
std::string edit_config_text(std::string_view text, std::string_view key, const std::optional<std::string>& value);

// Writes $LASH_HOME/config atomically under its lock (config.lock, flock): a temp file
// beside it, fsync, rename. The edit is made on the file as read under the lock.
Result<void> update_user_config(std::string_view key, const std::optional<std::string>& value);

}  // namespace lash::policy
