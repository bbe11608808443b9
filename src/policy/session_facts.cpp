#include "policy/session_facts.h"
#include "policy/paths.h"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "base/real_paths.h"
#include "base/strutil.h"
#include "policy/paths.h"
#include "policy/wrapper_chain.h"

namespace lash::policy {

// The real probe keeps syscalls low, because make_session_facts runs at every start-up
// of a session with an allowlist: one stat() per PATH candidate (none for a name a
// small PATH directory does not hold), and real paths through RealPaths (each
// directory resolved once, same-directory symlinks followed in place).
FsProbe FsProbe::system() {
  auto real_paths = std::make_shared<RealPaths>();
  FsProbe fs;
  fs.is_system = true;
  fs.realpath = [real_paths](const std::string& p) -> std::optional<std::string> {
    std::string r = real_paths->resolve(p).path;
    if (r.empty()) return std::nullopt;
    return r;
  };
  fs.executable = [](const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
  };
  // Each PATH directory is opened once and candidates are looked up relative to it,
  // so a miss costs one single-component fstatat() instead of a full path walk. A
  // small directory (most PATH entries before /usr/bin) is listed instead, once
  // (RealPaths::may_hold): a name it does not hold then costs no syscall at all. A
  // name listed is still checked with fstatat().
  auto realpath = fs.realpath;
  fs.which = [real_paths, realpath](std::string_view name, std::string_view path_var)
      -> std::optional<std::string> {
    for (const auto& d : str::split(path_var, ':')) {
      std::string dir = d.empty() ? std::string(".") : d;
      // O_PATH for the lookups: a search-only (0711) directory is still searched; only
      // its listing fails, and then every name is looked up.
      bool missing = false;
      int fd = real_paths->dir_fd(dir, &missing);
      std::string n(name);
      if (missing || !real_paths->may_hold(dir, n)) continue;
      struct stat st;
      if (fd >= 0 ? ::fstatat(fd, n.c_str(), &st, 0) != 0 : ::stat((dir + "/" + n).c_str(), &st) != 0) continue;
      if (!S_ISREG(st.st_mode) || !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH))) continue;
      return realpath(dir + "/" + n);
    }
    return std::nullopt;
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
  if (fs.which) return fs.which(name, path_var);
  for (const auto& dir : str::split(path_var, ':')) {
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + std::string(name);
    if (fs.executable(candidate)) return fs.realpath(candidate);
  }
  return std::nullopt;
}

std::optional<std::string> resolve_entry(const std::string& entry, const SessionEnv& env, const FsProbe& fs) {
  if (!entry.empty() && entry[0] == '/') return fs.realpath(entry);
  if (entry.rfind("./", 0) == 0) return fs.realpath(paths::expand(entry, env.start_dir, env.home));
  if (entry.rfind("~/", 0) == 0) {
    if (env.home.empty() || env.home[0] != '/') return std::nullopt;  // no HOME: names nothing
    return fs.realpath(paths::expand(entry, env.start_dir, env.home));
  }
  return resolve_on_path(entry, env.path_var, fs);
}

void add_allowed(SessionFacts& f, const std::string& entry, const std::string& real) {
  f.allow_real.insert(real);
  if (entry[0] != '/') f.allow_real_by_name.emplace(entry, real);
}

bool is_allowlist_glob(const std::string& entry) {
  return !entry.empty() && entry[0] == '/' && entry.find('*') != std::string::npos;
}

void resolve_allowlist_globs(SessionFacts& f, const Profile& p) {
  if (p.spawn_any.value) return;
  for (const auto& e : p.spawn_allowlist.value) {
    if (!is_allowlist_glob(e)) continue;
    glob_t g{};
    // GLOB_NOSORT is not used: the order shows in review and should not vary.
    if (::glob(e.c_str(), 0, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) {
        char* real = ::realpath(g.gl_pathv[i], nullptr);
        if (!real) continue;
        struct stat st;
        if (::stat(real, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
          f.allow_real.insert(real);
        std::free(real);
      }
    }
    ::globfree(&g);
  }
}

void resolve_spawn_lists(SessionFacts& f, const Profile& p, const SessionEnv& env, const FsProbe& fs) {
  if (!p.spawn_any.value)
    for (const auto& e : p.spawn_allowlist.value)
      if (!is_allowlist_glob(e))
        if (auto real = resolve_entry(e, env, fs)) add_allowed(f, e, *real);
  resolve_allowlist_globs(f, p);
  for (const auto& e : p.spawn_denylist.value)
    if (auto real = resolve_entry(e, env, fs)) f.deny_real.insert(*real);
}

void resolve_writable_roots(SessionFacts& f, const Profile& p, const SessionEnv& env, const FsProbe& fs) {
  for (auto& root : writable_roots(p, env)) {
    if (auto real = fs.realpath(root.path)) {
      root.path = paths::normalize(*real);
      struct stat st;
      if (::stat(root.path.c_str(), &st) == 0) {
        root.dev = static_cast<uint64_t>(st.st_dev);
        root.ino = static_cast<uint64_t>(st.st_ino);
      }
    }
    f.writable_roots.push_back(std::move(root));
  }
  for (const auto& e : p.exec_paths.value) {
    if (e == "$TMPDIR" && env.tmpdir.empty()) continue;
    WritableRoot root{e == "$TMPDIR" ? paths::normalize(env.tmpdir) : paths::expand(e, env.start_dir, env.home),
                      "process.exec_paths"};
    if (auto real = fs.realpath(root.path)) root.path = paths::normalize(*real);
    // Only places the session writes: a workspace symlink `build -> /usr` must not
    // turn a system tree into an exec path (it would run every program there).
    bool inside_writable = std::any_of(f.writable_roots.begin(), f.writable_roots.end(),
                                       [&](const WritableRoot& w) { return paths::beneath(root.path, w.path); });
    if (!inside_writable) {
      f.exec_roots_refused.push_back(e + " (" + root.path + ")");
      continue;
    }
    f.exec_roots.push_back(std::move(root));
  }
}

SessionFacts make_session_facts(const ResolvedProfile& profile, const SessionEnv& env,
                                const FsProbe& fs) {
  SessionFacts f;
  resolve_spawn_lists(f, profile.values, env, fs);
  resolve_writable_roots(f, profile.values, env, fs);
  if (fs.is_system) f.wrapper_gaps = find_wrapper_gaps(f, env);
  return f;
}

}  // namespace lash::policy
