#include "policy/auto_detect.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>

#include "base/fileio.h"
#include "base/strutil.h"
#include "policy/ini_loader.h"
#include "policy/paths.h"
#include "policy/resolver.h"
#include "policy/validate.h"

namespace lash::policy {

namespace {

Result<std::vector<std::string>> rules_of(std::string_view value) {
  auto list = validate::split_list(value);
  if (!list) return list.error();
  for (const auto& r : *list) {
    bool ok = (str::starts_with(r, "env:") && validate::is_env_name(std::string_view(r).substr(4))) ||
              (str::starts_with(r, "git-remote:") && r.size() > 11) ||
              (str::starts_with(r, "path:") && r.size() > 5 && (r[5] == '/' || r[5] == '~')) ||
              (str::starts_with(r, "container:") && r.size() > 10) || r == "ssh";
    if (!ok)
      return Error{"invalid rule '" + r +
                       "' (env:NAME, git-remote:HOST-GLOB, path:/GLOB, path:~/GLOB, container:KIND-GLOB or ssh)",
                   {}, 0, {}};
  }
  return list;
}

bool rule_matches(const std::string& r, const DetectContext& ctx) {
  if (str::starts_with(r, "env:")) {
    const char* v = ctx.getenv ? ctx.getenv(r.c_str() + 4) : nullptr;
    return v && *v;
  }
  if (str::starts_with(r, "git-remote:")) {
    std::string pat = r.substr(11);
    std::transform(pat.begin(), pat.end(), pat.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const auto& h : ctx.remote_hosts)
      if (::fnmatch(pat.c_str(), h.c_str(), 0) == 0) return true;
    return false;
  }
  if (r == "ssh") return ctx.getenv && ((ctx.getenv("SSH_CONNECTION") && *ctx.getenv("SSH_CONNECTION")) ||
                                        (ctx.getenv("SSH_TTY") && *ctx.getenv("SSH_TTY")));
  if (str::starts_with(r, "container:"))
    return !ctx.container.empty() && ::fnmatch(r.c_str() + 10, ctx.container.c_str(), 0) == 0;
  std::string pat = paths::expand(r.substr(5), ctx.start_dir, ctx.home);
  // `~/src/*` matches ~/src/x and anything below it.
  return ::fnmatch(pat.c_str(), ctx.start_dir.c_str(), 0) == 0 ||
         ::fnmatch((pat + "/*").c_str(), ctx.start_dir.c_str(), 0) == 0;
}

std::string host_of_url(std::string url) {
  size_t scheme = url.find("://");
  if (scheme != std::string::npos) {
    url = url.substr(scheme + 3);
    url = url.substr(0, url.find('/'));
    if (size_t at = url.rfind('@'); at != std::string::npos) url = url.substr(at + 1);
    if (!url.empty() && url[0] == '[') return {};
    url = url.substr(0, url.find(':'));
  } else {
    size_t colon = url.find(':');
    if (colon == std::string::npos || url.find('/') < colon) return {};  // a local path
    url = url.substr(0, colon);
    if (size_t at = url.rfind('@'); at != std::string::npos) url = url.substr(at + 1);
  }
  std::transform(url.begin(), url.end(), url.begin(), [](unsigned char c) { return std::tolower(c); });
  return url;
}

}  // namespace

Result<void> check_detect_entry(std::string_view key, std::string_view value) {
  if (key != "when") return Error{"unknown key in [detect] (only 'when')", {}, 0, {}};
  auto r = rules_of(value);
  if (!r) return r.error();
  return {};
}

std::optional<std::string> matching_rule(std::string_view profile_text, const DetectContext& ctx) {
  Diags diags;
  auto doc = read_ini(profile_text, "profile", diags);
  if (!doc || !diags.empty()) return std::nullopt;  // duplicate keys too: no rule from a broken file
  const IniSection* sec = doc->find("detect");
  if (!sec) return std::nullopt;
  for (const auto& e : sec->entries) {
    std::string value = e.value;
    for (const auto& c : e.continuations) value += " " + c.value;  // the line before ends in a comma
    auto rules = e.key == "when" ? rules_of(value) : Result<std::vector<std::string>>(Error{});
    if (!rules) continue;
    for (const auto& r : *rules)
      if (rule_matches(r, ctx)) return r;
  }
  return std::nullopt;
}

std::vector<std::string> git_remote_hosts(const std::string& dir) {
  std::vector<std::string> hosts;
  std::string d = dir;
  for (int depth = 0; depth < 64 && !d.empty(); ++depth) {
    struct stat st;
    std::string git = d + "/.git";
    std::string config;
    if (::stat(git.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        config = git + "/config";
      } else {
        std::string text;  // a worktree or submodule: "gitdir: PATH"
        if (read_regular_file(git, text, 4096) == 0 && str::starts_with(text, "gitdir: ")) {
          std::string gd(str::trim(std::string_view(text).substr(8)));
          if (!gd.empty() && gd[0] != '/') gd = d + "/" + gd;
          config = gd + "/config";
          std::string common;
          if (read_regular_file(gd + "/commondir", common, 4096) == 0) {
            std::string c(str::trim(common));
            config = (c.empty() || c[0] == '/' ? c : gd + "/" + c) + "/config";
          }
        }
      }
      std::string text;
      if (read_regular_file(config, text, 256 * 1024) == 0)
        for (auto& line : str::split(text, '\n')) {
          std::string_view t = str::trim(line);
          if (!str::starts_with(t, "url")) continue;
          size_t eq = t.find('=');
          if (eq == std::string_view::npos || str::trim(t.substr(0, eq)) != "url") continue;
          std::string h = host_of_url(std::string(str::trim(t.substr(eq + 1))));
          if (!h.empty()) hosts.push_back(h);
        }
      return hosts;
    }
    if (d == "/") break;
    size_t slash = d.rfind('/');
    d = slash == 0 ? "/" : d.substr(0, slash);
  }
  return hosts;
}

std::string container_kind(const std::function<const char*(const char*)>& getenv) {
  // systemd-nspawn, LXC and podman set `container`; docker leaves /.dockerenv.
  const char* c = getenv ? getenv("container") : nullptr;
  if (c && *c) {
    std::string v(c);
    if (v.size() <= 64 && std::all_of(v.begin(), v.end(), [](unsigned char ch) { return std::isalnum(ch) || ch == '-' || ch == '_'; }))
      return v;
  }
  struct stat st;
  if (::stat("/.dockerenv", &st) == 0) return "docker";
  if (::stat("/run/.containerenv", &st) == 0) return "podman";
  return {};
}

std::string repository_root(const std::string& dir) {
  std::string d = dir;
  for (int depth = 0; depth < 64 && !d.empty() && d[0] == '/'; ++depth) {
    struct stat st;
    if (::stat((d + "/.git").c_str(), &st) == 0) return d;
    if (d == "/") break;
    size_t slash = d.rfind('/');
    d = slash == 0 ? "/" : d.substr(0, slash);
  }
  return {};
}

bool no_wider(const ResolvedProfile& c, const ResolvedProfile& a) {
  const Profile& x = c.values;
  const Profile& y = a.values;
  auto le = [](bool p, bool q) { return !p || q; };
  bool caps = le(x.file_redirect.value, y.file_redirect.value) && le(x.plugin_access.value, y.plugin_access.value) &&
              le(x.config_modify.value, y.config_modify.value) && le(x.session_manage.value, y.session_manage.value) &&
              le(x.job_control_own.value, y.job_control_own.value) &&
              le(x.job_control_others.value, y.job_control_others.value) &&
              le(x.audit_access.value, y.audit_access.value) && le(x.profile_manage.value, y.profile_manage.value) &&
              le(x.profile_switch.value, y.profile_switch.value);
  bool spawn = le(x.spawn_any.value, y.spawn_any.value);
  bool env = le(x.env_mutation.value, y.env_mutation.value);
  bool net = le(!x.block_all_others.value, !y.block_all_others.value);
  // Lists compared as written: an entry the active profile does not have makes the
  // candidate wider (a coarse test, but it never calls a wider profile narrower).
  auto subset = [](const List& c, std::initializer_list<const List*> a) {
    return std::all_of(c.begin(), c.end(), [&](const std::string& e) {
      return std::any_of(a.begin(), a.end(), [&](const List* l) { return std::find(l->begin(), l->end(), e) != l->end(); });
    });
  };
  bool files = le(x.fs_enforcement.value != Enforcement::enforce, y.fs_enforcement.value != Enforcement::enforce) &&
               le(x.net_enforcement.value != Enforcement::enforce, y.net_enforcement.value != Enforcement::enforce) &&
               subset(x.read_write.value, {&y.read_write.value}) &&
               subset(x.read_only.value, {&y.read_only.value, &y.read_write.value}) &&
               le(x.include_workdir.value, y.include_workdir.value) && le(x.system_paths.value, y.system_paths.value) &&
               subset(y.protect.value, {&x.protect.value}) && subset(x.allow_hosts.value, {&y.allow_hosts.value}) &&
               subset(x.exec_paths.value, {&y.exec_paths.value}) &&
               (x.spawn_any.value || y.spawn_any.value || subset(x.spawn_allowlist.value, {&y.spawn_allowlist.value}));
  return caps && spawn && env && net && files;
}

std::optional<Suggestion> suggest_profile(const ProfileStore& store, bool include_user, const ResolvedProfile& active,
                                          const DetectContext& ctx, const std::set<std::string>& skip) {
  std::vector<std::string> seen;
  for (Source src : {Source::user, Source::system, Source::builtin}) {
    if (src == Source::user && !include_user) continue;
    for (const std::string& name : store.names(src)) {
      if (name == active.name || skip.count(name) || std::find(seen.begin(), seen.end(), name) != seen.end())
        continue;
      seen.push_back(name);
      auto file = store.get(name, src);
      if (!file || !*file) continue;
      auto rule = matching_rule((*file)->text, ctx);
      if (!rule) continue;
      ResolveOptions opts;
      opts.include_user = include_user;
      auto resolved = load_resolved(store, name, opts);
      if (!resolved) continue;
      if (!active.values.profile_switch.value && !no_wider(**resolved, active)) continue;
      return Suggestion{name, *rule};
    }
  }
  return std::nullopt;
}

}  // namespace lash::policy
