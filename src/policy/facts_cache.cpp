#include "policy/facts_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <set>
#include <string_view>
#include <vector>

#include "base/real_paths.h"
#include "base/state_cache.h"
#include "base/strutil.h"
#include "policy/wrapper_chain.h"

namespace lash::policy {
namespace {

namespace sc = state_cache;

constexpr std::string_view kHeader = "lash session-facts cache 2";

// One spawn-list entry and what it resolved to.
struct Resolution {
  char list = 'a';  // 'a' allowlist, 'd' denylist
  std::string entry;
  std::optional<std::string> real;
};

// The entries make_session_facts resolves, in its order.
std::vector<Resolution> entries_of(const Profile& p) {
  std::vector<Resolution> out;
  if (!p.spawn_any.value)
    for (const auto& e : p.spawn_allowlist.value)
      if (!is_allowlist_glob(e)) out.push_back({'a', e, std::nullopt});
  for (const auto& e : p.spawn_denylist.value) out.push_back({'d', e, std::nullopt});
  return out;
}

// The inputs, as the cache states them: a file for other inputs is not this answer.
std::vector<std::string> input_lines(const Profile& p, const SessionEnv& env) {
  std::vector<std::string> out = {"U\t" + sc::credentials(), "K\t" + env.path_var, "H\t" + env.home, "W\t" + env.start_dir};
  for (const Resolution& r : entries_of(p)) out.push_back(std::string(r.list == 'a' ? "A" : "N") + "\t" + r.entry);
  return out;
}

bool cacheable(const Profile& p, const SessionEnv& env) {
  for (const std::string& line : input_lines(p, env))
    if (!sc::one_field(line.substr(2))) return false;
  for (const auto& d : str::split(env.path_var, ':'))
    if (d.empty() || d[0] != '/') return false;  // resolved against the current directory
  return true;
}

SessionFacts facts_of(const std::vector<Resolution>& rs) {
  SessionFacts f;
  for (const Resolution& r : rs) {
    if (!r.real) continue;
    if (r.list == 'a')
      add_allowed(f, r.entry, *r.real);
    else
      f.deny_real.insert(*r.real);
  }
  return f;
}

// What the resolutions RS depended on: every PATH directory (a name added to or
// removed from any of them changes it), each candidate that is there, before the one
// taken (a chmod +x, or a dangling or looping symlink that starts to resolve, changes
// no PATH directory), and the directories of each symlink chain, also of candidates
// passed over. A name missing from a PATH directory is covered by that directory.
std::vector<std::string> dependencies(const std::vector<Resolution>& rs, const SessionEnv& env) {
  std::vector<std::string> deps;
  std::vector<std::string> dirs;
  for (const auto& d : str::split(env.path_var, ':')) dirs.emplace_back(d);
  RealPaths listings;  // small directories listed once (most names are in none of them)
  bool bare = false;
  for (const Resolution& r : rs) {
    if (!r.entry.empty() && r.entry[0] == '/') {
      sc::add_symlink_chain(r.entry, deps);
    } else {
      bare = true;
      for (const std::string& d : dirs) {
        if (!listings.may_hold(d, r.entry)) continue;
        std::string candidate = d + "/" + r.entry;
        struct stat st;
        bool examined = ::lstat(candidate.c_str(), &st) == 0;
        if (!examined && errno == ENOENT) continue;
        deps.push_back(candidate);  // recorded even when it does not resolve (now)
        bool link = !examined || S_ISLNK(st.st_mode);
        if (link) sc::add_symlink_chain(candidate, deps);
        // Where the lookup stops: the first executable regular file (through links).
        if ((!link || ::stat(candidate.c_str(), &st) == 0) && S_ISREG(st.st_mode) &&
            (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
          break;
      }
    }
    if (r.real) deps.push_back(*r.real);
  }
  if (bare) deps.insert(deps.begin(), dirs.begin(), dirs.end());
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (auto& d : deps)
    if (seen.insert(d).second) unique.push_back(std::move(d));
  return unique;
}

std::optional<std::string> text_of(const Profile& p, const SessionEnv& env, const std::vector<Resolution>& rs,
                                   int64_t computed_at_ns) {
  if (!cacheable(p, env)) return std::nullopt;
  std::string out(kHeader);
  out += '\n';
  for (const std::string& line : input_lines(p, env)) out += line + '\n';
  auto deps_ = dependencies(rs, env);
  for (const std::string& d : deps_) {
    auto w = sc::witness_line(d, computed_at_ns);
    if (!w) return std::nullopt;
    out += *w + '\n';
  }
  for (const Resolution& r : rs) {
    if (!r.real) continue;
    if (!sc::one_field(*r.real)) return std::nullopt;
    out += std::string("R\t") + r.list + '\t' + r.entry + '\t' + *r.real + '\n';
  }
  out += "end\n";
  return out;
}

std::vector<Resolution> resolve(const Profile& p, const SessionEnv& env) {
  std::vector<Resolution> rs = entries_of(p);
  FsProbe fs = FsProbe::system();
  for (Resolution& r : rs) r.real = resolve_entry(r.entry, env, fs);
  return rs;
}

}  // namespace

std::string facts_cache_name(const Profile& p, const SessionEnv& env) {
  char name[32];
  std::snprintf(name, sizeof name, "facts-%016llx",
                static_cast<unsigned long long>(sc::hash_of(input_lines(p, env))));
  return name;
}

std::optional<std::string> facts_cache_text(const Profile& p, const SessionEnv& env, int64_t computed_at_ns) {
  return text_of(p, env, resolve(p, env), computed_at_ns);
}

std::optional<SessionFacts> facts_from_cache_text(const std::string& text, const Profile& p, const SessionEnv& env) {
  if (!cacheable(p, env)) return std::nullopt;
  std::string_view rest(text);
  auto next_line = [&](std::string_view& line) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return false;
    line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    return true;
  };
  std::string_view line;
  if (!next_line(line) || line != kHeader) return std::nullopt;
  std::vector<std::string> inputs = input_lines(p, env);
  for (const std::string& want : inputs)
    if (!next_line(line) || line != want) return std::nullopt;
  std::vector<Resolution> rs;
  size_t witnesses = 0;
  bool ended = false;
  while (next_line(line)) {
    if (ended) return std::nullopt;
    if (line == "end") {
      ended = true;
      continue;
    }
    std::vector<std::string_view> f = sc::fields(line);
    if (f[0] == "W") {
      if (!sc::witness_holds(f)) return std::nullopt;
      ++witnesses;
    } else if (f[0] == "R" && f.size() == 4 && (f[1] == "a" || f[1] == "d") && !f[3].empty() && f[3][0] == '/') {
      rs.push_back({f[1][0], std::string(f[2]), std::string(f[3])});
    } else {
      return std::nullopt;
    }
  }
  // Every resolution is one of the inputs' entries (in their list).
  for (const Resolution& r : rs) {
    std::string in = std::string(r.list == 'a' ? "A" : "N") + "\t" + r.entry;
    if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) return std::nullopt;
  }
  if (!ended || !rest.empty() || witnesses == 0) return std::nullopt;
  return facts_of(rs);
}

SessionFacts cached_session_facts(const std::string& dir, const ResolvedProfile& profile, const SessionEnv& env) {
  const Profile& p = profile.values;
  SessionFacts f;
  bool found = false;
  std::string name;
  // Nothing to resolve (the default profile): no cache file either.
  if (!dir.empty() && !entries_of(p).empty() && cacheable(p, env)) {
    name = facts_cache_name(p, env);
    if (auto text = sc::read_file(dir, name))
      if (auto cached = facts_from_cache_text(*text, p, env)) {
        f = std::move(*cached);
        found = true;
      }
  }
  if (!found) {
    int64_t started = sc::now_ns();
    std::vector<Resolution> rs = resolve(p, env);
    f = facts_of(rs);
    if (!name.empty())
      if (auto text = text_of(p, env, rs, started)) sc::write_file(dir, name, *text);
  }
  resolve_allowlist_globs(f, p);
  resolve_writable_roots(f, p, env, FsProbe::system());
  f.wrapper_gaps = find_wrapper_gaps(f, env);
  return f;
}

}  // namespace lash::policy
