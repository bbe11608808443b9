#include "policy/store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/unique_fd.h"
#include "policy/builtin_profiles.h"
#include "policy/ini_loader.h"
#include "policy/store_snapshot.h"
#include "policy/validate.h"

namespace lash::policy {

// A policy file must be the only name of its content: a symlink or a second hard
// link could lie inside a session's writable grants, where the read-only bind over
// lash's own state does not reach, and a program could rewrite the policy of the
// next session through it (enforcement.md).
Result<std::optional<std::string>> read_policy_file(const std::string& path, size_t max) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW));
  if (!fd) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR) return std::optional<std::string>{};
    struct stat link;
    if (err == ELOOP && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      return Error{kPolicyFileSymlink, path, 0, {}};
    return sys_error("cannot open", path, err);
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return sys_error("cannot stat", path, errno);
  if (!S_ISREG(st.st_mode)) return Error{"not a regular file", path, 0, {}};
  if (st.st_nlink > 1)
    return Error{"has " + std::to_string(st.st_nlink) + " hard links; " + kPolicyFileOneName,
                 path, 0, {}};
  if (size_t(st.st_size) > max) return Error{"file is larger than 64 KiB", path, 0, {}};
  std::string out(size_t(st.st_size) + 1, '\0');
  size_t got = 0;
  for (;;) {
    if (got == out.size()) {
      if (out.size() > max) return Error{"file is larger than 64 KiB", path, 0, {}};
      out.resize(std::min(out.size() * 2, max + 1));
    }
    ssize_t n = ::read(fd.get(), out.data() + got, out.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return sys_error("cannot read", path, errno);
    }
    if (n == 0) break;
    got += size_t(n);
  }
  out.resize(got);
  return std::optional<std::string>(std::move(out));
}

Result<LoadedProfile> load_profile_file(const std::string& path) {
  auto text = read_policy_file(path, kMaxPolicyFile);
  if (!text) return text.error();
  if (!*text) return Error{"no such file", path, 0, {}};
  return load_profile_text(path, std::move(**text));
}

Result<LoadedProfile> load_profile_text(const std::string& path, std::string text) {
  std::string name(path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1));
  constexpr std::string_view ext = ".profile";
  if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
    name.resize(name.size() - ext.size());
  return parse_profile(ProfileFile{name, Source::user, path, std::move(text)});
}

SearchPath::SearchPath(std::string user_dir, std::string system_dir)
    : user_dir_(std::move(user_dir)), system_dir_(std::move(system_dir)) {}

static const BuiltinProfile* builtin(std::string_view name) {
  for (const auto& b : builtin_profiles())
    if (b.name == name) return &b;
  return nullptr;
}

Result<std::optional<ProfileFile>> SearchPath::get(std::string_view name, Source source) const {
  if (source == Source::builtin) {
    const auto* b = builtin(name);
    if (!b) return std::optional<ProfileFile>{};
    return std::optional<ProfileFile>(ProfileFile{std::string(name), source,
                                                  "builtin:" + std::string(name) + ".profile",
                                                  std::string(b->text)});
  }
  const std::string& dir = source == Source::user ? user_dir_ : system_dir_;
  if (dir.empty()) return std::optional<ProfileFile>{};
  std::string path = dir + "/" + std::string(name) + ".profile";
  auto copied = snapshot_file(dir, name);  // in a subshell: what the shell read
  auto text = copied ? std::move(*copied) : read_policy_file(path, kMaxPolicyFile);
  if (!text) return text.error();
  if (!*text) return std::optional<ProfileFile>{};
  return std::optional<ProfileFile>(
      ProfileFile{std::string(name), source, std::move(path), std::move(**text)});
}

std::vector<std::string> SearchPath::names(Source source) const {
  std::vector<std::string> out;
  if (source == Source::builtin) {
    for (const auto& b : builtin_profiles()) out.emplace_back(b.name);
    return out;
  }
  const std::string& dir = source == Source::user ? user_dir_ : system_dir_;
  if (dir.empty()) return out;
  if (auto copied = snapshot_names(dir)) return std::move(*copied);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    std::string_view n = e->d_name;
    constexpr std::string_view ext = ".profile";
    if (n.size() <= ext.size() || n.substr(n.size() - ext.size()) != ext) continue;
    n.remove_suffix(ext.size());
    if (validate::is_profile_name(n)) out.emplace_back(n);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

MemoryStore::MemoryStore() {
  for (const auto& b : builtin_profiles())
    files_[size_t(Source::builtin)][std::string(b.name)] = std::string(b.text);
}

void MemoryStore::set(Source source, std::string name, std::string text) {
  files_[size_t(source)][std::move(name)] = std::move(text);
}

void MemoryStore::remove(Source source, const std::string& name) {
  files_[size_t(source)].erase(name);
}

Result<std::optional<ProfileFile>> MemoryStore::get(std::string_view name, Source source) const {
  const auto& m = files_[size_t(source)];
  auto it = m.find(std::string(name));
  if (it == m.end()) return std::optional<ProfileFile>{};
  std::string path = std::string(source_name(source)) + ":" + it->first + ".profile";
  return std::optional<ProfileFile>(ProfileFile{it->first, source, path, it->second});
}

std::vector<std::string> MemoryStore::names(Source source) const {
  std::vector<std::string> out;
  for (const auto& [n, _] : files_[size_t(source)]) out.push_back(n);
  return out;
}

Result<ProfileFile> find_profile(const ProfileStore& store, std::string_view name,
                                 bool include_user, Source first) {
  auto valid = validate::profile_name(name);
  if (!valid) return valid.error();
  for (Source s : {Source::user, Source::system, Source::builtin}) {
    if (s == Source::user && !include_user) continue;
    if (s < first) continue;
    auto f = store.get(name, s);
    if (!f) return f.error();
    if (*f) return std::move(**f);
  }
  return Error{"profile '" + std::string(name) + "' not found", {}, 0, {}};
}

}  // namespace lash::policy
