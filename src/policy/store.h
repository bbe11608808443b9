// Where profile files are found: the user directory ($LASH_HOME/profiles), the system
// directory (<system_dir>/profiles) and the built-in profiles embedded at build time.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/profile_loader.h"

namespace lash::policy {

class ProfileStore {
 public:
  virtual ~ProfileStore() = default;
  // NAME's file in SOURCE: nullopt when there is none, an Error when one exists but
  // cannot be read (never a silent fall-through to the next source).
  virtual Result<std::optional<ProfileFile>> get(std::string_view name, Source source) const = 0;
  // Profile names available in SOURCE (files NAME.profile with a valid NAME), sorted.
  virtual std::vector<std::string> names(Source source) const = 0;
};

// The real search path. An empty directory string disables that source.
class SearchPath final : public ProfileStore {
 public:
  SearchPath(std::string user_dir, std::string system_dir);
  Result<std::optional<ProfileFile>> get(std::string_view name, Source source) const override;
  std::vector<std::string> names(Source source) const override;
  const std::string& user_dir() const { return user_dir_; }
  const std::string& system_dir() const { return system_dir_; }

 private:
  std::string user_dir_, system_dir_;
};

// In-memory store for tests and tools; the built-in source still comes from the binary
// unless replaced with set().
class MemoryStore final : public ProfileStore {
 public:
  MemoryStore();
  void set(Source source, std::string name, std::string text);
  void remove(Source source, const std::string& name);
  Result<std::optional<ProfileFile>> get(std::string_view name, Source source) const override;
  std::vector<std::string> names(Source source) const override;

 private:
  std::map<std::string, std::string> files_[3];
};

// The first file for NAME in user (if INCLUDE_USER), system, then built-in order,
// starting at FIRST (a parent is never searched above its child's source).
Result<ProfileFile> find_profile(const ProfileStore& store, std::string_view name,
                                 bool include_user, Source first = Source::user);

// `profile validate FILE`: reads and checks one profile file by path (its parent is not
// loaded). The profile name is the file name without ".profile".
Result<LoadedProfile> load_profile_file(const std::string& path);
// The same check of TEXT already read from PATH (by the caller, e.g. through the
// session's broker).
Result<LoadedProfile> load_profile_text(const std::string& path, std::string text);

// Reads a regular file of at most MAX bytes without following into FIFOs or devices.
// nullopt when it does not exist.
Result<std::optional<std::string>> read_policy_file(const std::string& path, size_t max);
// Why a policy file with a second name is refused (read_policy_file, profile validate).
inline constexpr const char* kPolicyFileSymlink =
    "is a symbolic link; a policy file must be a regular file of its own (copy it instead)";
inline constexpr const char* kPolicyFileOneName = "a policy file must have one name (copy it instead)";

}  // namespace lash::policy
