#include "policy/store_snapshot.h"

#include <dirent.h>
#include <sys/stat.h>

#include <map>

#include "policy/ini_loader.h"
#include "policy/store.h"
#include "policy/validate.h"

namespace lash::policy {
namespace {

struct Stamp {
  ino_t ino = 0;
  dev_t dev = 0;
  int64_t mtime_ns = -1;
  off_t size = -1;
  bool operator==(const Stamp&) const = default;
};

Stamp stamp_of(const struct stat& st) {
  return Stamp{st.st_ino, st.st_dev, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
               st.st_size};
}

struct FileCopy {
  Stamp stamp;
  Result<std::optional<std::string>> text = std::optional<std::string>{};
};

struct DirCopy {
  Stamp stamp;                            // of the directory: a file added or removed
  std::map<std::string, FileCopy> files;  // by profile name
};

std::map<std::string, DirCopy>& copies() {
  static std::map<std::string, DirCopy> m;
  return m;
}
bool in_use = false;

bool still_same(const std::string& dir, const DirCopy& c) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !(stamp_of(st) == c.stamp)) return false;
  for (const auto& [name, f] : c.files) {
    struct stat fs;
    if (::lstat((dir + "/" + name + ".profile").c_str(), &fs) != 0 || !(stamp_of(fs) == f.stamp))
      return false;
    if (fs.st_nlink > 1) return false;  // read again: the reader refuses it
  }
  return true;
}

DirCopy take(const std::string& dir) {
  DirCopy c;
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return c;  // no directory: an empty copy
  c.stamp = stamp_of(st);
  SearchPath reader(dir, "");
  for (const auto& name : reader.names(Source::user)) {
    std::string path = dir + "/" + name + ".profile";
    FileCopy f;
    struct stat fs;
    if (::lstat(path.c_str(), &fs) == 0) f.stamp = stamp_of(fs);
    f.text = read_policy_file(path, kMaxPolicyFile);
    c.files.emplace(name, std::move(f));
  }
  return c;
}

}  // namespace

void refresh_store_snapshot(const std::vector<std::string>& dirs) {
  auto& m = copies();
  for (const auto& d : dirs) {
    if (d.empty()) continue;
    auto it = m.find(d);
    if (it != m.end() && still_same(d, it->second)) continue;
    m[d] = take(d);
  }
}

void use_store_snapshot() { in_use = true; }

std::optional<Result<std::optional<std::string>>> snapshot_file(const std::string& dir,
                                                                std::string_view name) {
  if (!in_use) return std::nullopt;
  auto it = copies().find(dir);
  if (it == copies().end()) return std::nullopt;
  auto f = it->second.files.find(std::string(name));
  if (f == it->second.files.end()) return Result<std::optional<std::string>>(std::optional<std::string>{});
  return f->second.text;
}

std::optional<std::vector<std::string>> snapshot_names(const std::string& dir) {
  if (!in_use) return std::nullopt;
  auto it = copies().find(dir);
  if (it == copies().end()) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& [n, _] : it->second.files) out.push_back(n);
  return out;
}

}  // namespace lash::policy
