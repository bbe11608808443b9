#include "plugin/discovery.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/fileio.h"
#include "lash_config.h"
#include "policy/session_select.h"

namespace lash::plugin {

std::string_view source_name(Source s) {
  switch (s) {
    case Source::shipped: return "shipped";
    case Source::system: return "system";
    case Source::user: return "user";
  }
  return "?";
}

const Found* Discovered::find(std::string_view name) const {
  for (const Found& f : plugins)
    if (f.manifest.name == name) return &f;
  return nullptr;
}

namespace {

std::vector<std::string> subdirectories(const std::string& dir) {
  std::vector<std::string> out;
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return out;
  while (dirent* e = ::readdir(d.get())) {
    std::string n = e->d_name;
    if (n.empty() || n[0] == '.') continue;
    struct stat st;
    if (::stat((dir + "/" + n).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) out.push_back(n);
    if (out.size() >= kMaxPluginsPerDir) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Discovered discover(const std::vector<SearchDir>& dirs) {
  Discovered d;
  for (const SearchDir& sd : dirs) {
    for (const std::string& sub : subdirectories(sd.path)) {
      std::string dir = sd.path + "/" + sub;
      std::string file = dir + "/plugin.ini";
      std::string text;
      // The manifest itself is never a link: lash reads it with its own rights, not
      // the session's, and would echo what it found there in its warnings.
      struct stat lst;
      if (::lstat(file.c_str(), &lst) == 0 && !S_ISREG(lst.st_mode)) {
        d.warnings.push_back(file + ": not a regular file (a symbolic link?); ignored");
        continue;
      }
      int err = read_whole_file(file, text, kMaxManifest + 1);
      if (err == ENOENT) continue;
      if (err != 0) {
        d.warnings.push_back(file + ": cannot read: " + std::strerror(err));
        continue;
      }
      if (text.size() > kMaxManifest) {
        d.warnings.push_back(file + ": manifest over 16 KiB, ignored");
        continue;
      }
      policy::Diags diags;
      auto m = parse_manifest(text, file, dir, diags);
      if (!m) {
        for (auto& dg : diags) d.warnings.push_back(dg.text());
        continue;
      }
      if (const Found* prior = d.find(m->name)) {
        if (sd.source == Source::user || prior->source != sd.source)
          d.warnings.push_back(file + ": plugin '" + m->name + "' is already provided by the " +
                               std::string(source_name(prior->source)) + " plugins; ignored");
        continue;
      }
      d.plugins.push_back({sd.source, std::move(*m)});
    }
  }
  std::sort(d.plugins.begin(), d.plugins.end(),
            [](const Found& a, const Found& b) { return a.manifest.name < b.manifest.name; });
  return d;
}

std::vector<SearchDir> session_dirs(bool assigned) {
  std::vector<SearchDir> dirs;
  // LASH_PLUGIN_DIR is compiled in (meson option plugin_dir; the source tree's plugins/
  // by default, so a build runs in place), never taken from the environment.
  dirs.push_back({Source::shipped, LASH_PLUGIN_DIR});
  dirs.push_back({Source::system, policy::system_dir() + "/plugins"});
  if (!assigned) dirs.push_back({Source::user, policy::lash_home() + "/plugins"});
  return dirs;
}

}  // namespace lash::plugin
