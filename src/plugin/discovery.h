// Where plugins are found (cli.md): the shipped plugins/ of lash, <system_dir>/plugins,
// then $LASH_HOME/plugins. Each plugin is a directory NAME/ holding plugin.ini and its
// program. The first directory that has a plugin of a given name wins, so a user plugin
// never shadows a shipped or system one; under a profile assigned by the system policy
// the user directory is not read at all.
#pragma once
#include <string>
#include <vector>

#include "plugin/manifest.h"

namespace lash::plugin {

enum class Source { shipped, system, user };
std::string_view source_name(Source s);

struct SearchDir {
  Source source;
  std::string path;
};

struct Found {
  Source source;
  Manifest manifest;
};

struct Discovered {
  std::vector<Found> plugins;         // sorted by name
  std::vector<std::string> warnings;  // invalid manifests, shadowed names
  const Found* find(std::string_view name) const;
};

inline constexpr size_t kMaxPluginsPerDir = 256;
inline constexpr size_t kMaxManifest = 16 * 1024;

Discovered discover(const std::vector<SearchDir>& dirs);

// The session's directories: shipped, system and (unless ASSIGNED) user.
std::vector<SearchDir> session_dirs(bool assigned);

}  // namespace lash::plugin
