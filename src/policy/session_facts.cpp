#include "policy/session_facts.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "base/strutil.h"
#include "policy/paths.h"

namespace lash::policy {

FsProbe FsProbe::system() {
  FsProbe fs;
  fs.realpath = [](const std::string& p) -> std::optional<std::string> {
    char* r = ::realpath(p.c_str(), nullptr);
    if (!r) return std::nullopt;
    std::string out(r);
    std::free(r);
    return out;
  };
  fs.executable = [](const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  return fs;
}

bool filesystem_unrestricted(const Profile& p) {
  for (const auto& rw : p.read_write.value)
    if (paths::normalize(rw) == "/") return true;
  return false;
}

std::vector<WritableRoot> writable_roots(const Profile& p, const SessionEnv& env) {
  std::vector<WritableRoot> out;
  auto add = [&](std::string_view path, const char* key) {
    out.push_back(WritableRoot{paths::expand(path, env.start_dir, env.home), key});
  };
  if (!p.sandbox.value.empty()) add(p.sandbox.value, "filesystem.sandbox");
  for (const auto& rw : p.read_write.value) add(rw, "filesystem.read_write");
  if (p.tmpdir.value == Tmpdir::session && !env.tmpdir.empty())
    add(env.tmpdir, "filesystem.tmpdir");
  if (p.include_workdir.value && !env.start_dir.empty())
    add(env.start_dir, "filesystem.include_workdir");
  return out;
}

std::optional<std::string> resolve_on_path(std::string_view name, std::string_view path_var,
                                           const FsProbe& fs) {
  for (const auto& dir : str::split(path_var, ':')) {
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + std::string(name);
    if (fs.executable(candidate)) return fs.realpath(candidate);
  }
  return std::nullopt;
}

namespace {
// Real path of a spawn-list entry: PATH lookup for a bare name, realpath for a path.
std::optional<std::string> resolve_entry(const std::string& entry, const SessionEnv& env,
                                         const FsProbe& fs) {
  if (!entry.empty() && entry[0] == '/') return fs.realpath(entry);
  return resolve_on_path(entry, env.path_var, fs);
}
}  // namespace

SessionFacts make_session_facts(const ResolvedProfile& profile, const SessionEnv& env,
                                const FsProbe& fs) {
  SessionFacts f;
  const Profile& p = profile.values;
  if (!p.spawn_any.value) {
    for (const auto& e : p.spawn_allowlist.value) {
      auto real = resolve_entry(e, env, fs);
      if (!real) continue;
      f.allow_real.insert(*real);
      if (e[0] != '/') f.allow_real_by_name.emplace(e, *real);
    }
  }
  for (const auto& e : p.spawn_denylist.value)
    if (auto real = resolve_entry(e, env, fs)) f.deny_real.insert(*real);
  for (auto& root : writable_roots(p, env)) {
    if (auto real = fs.realpath(root.path)) root.path = paths::normalize(*real);
    f.writable_roots.push_back(std::move(root));
  }
  return f;
}

}  // namespace lash::policy
