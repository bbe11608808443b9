#include "policy/session_select.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "base/unique_fd.h"
#include "lash_config.h"
#include "policy/ini_loader.h"
#include "policy/system_policy.h"

namespace lash::policy {
namespace {

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string user_name() {
  std::vector<char> buf(4096);
  passwd pw{}, *res = nullptr;
  if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &res) != 0 || !res) return {};
  return pw.pw_name;
}

std::vector<std::string> group_names(const std::string& user) {
  std::vector<std::string> out;
  std::vector<char> buf(4096);
  passwd pw{}, *res = nullptr;
  gid_t primary = getgid();
  if (!user.empty() && getpwnam_r(user.c_str(), &pw, buf.data(), buf.size(), &res) == 0 && res)
    primary = pw.pw_gid;
  std::vector<gid_t> gids(64);
  int n = int(gids.size());
  if (!user.empty() && getgrouplist(user.c_str(), primary, gids.data(), &n) < 0) {
    gids.resize(size_t(n));
    if (getgrouplist(user.c_str(), primary, gids.data(), &n) < 0) n = 0;
  }
  if (user.empty()) {
    gids[0] = primary;
    n = 1;
  }
  gids.resize(size_t(n));
  for (gid_t g : gids) {
    group gr{}, *gres = nullptr;
    std::vector<char> gbuf(16384);
    if (getgrgid_r(g, &gr, gbuf.data(), gbuf.size(), &gres) == 0 && gres) out.push_back(gr.gr_name);
  }
  return out;
}

}  // namespace

std::string lash_home() {
  std::string dir;
  if (const char* v = std::getenv("LASH_HOME"); v && *v) {
    dir = v;
  } else {
    std::string home = env_or("HOME", "");
    if (home.empty()) {
      std::vector<char> buf(4096);
      passwd pw{}, *res = nullptr;
      if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &res) == 0 && res) home = pw.pw_dir;
    }
    dir = (home.empty() ? std::string("/") : home) + "/.lash";
  }
  // Always absolute, against the directory lash started in (the first call comes
  // before any `cd`): a relative one would follow the shell's `cd`, and the sandbox
  // must know which directory it protects (compile.h, own state).
  if (dir[0] != '/') {
    static std::map<std::string, std::string> made_absolute;
    auto it = made_absolute.find(dir);
    if (it == made_absolute.end()) {
      std::vector<char> cwd(4096);
      std::string base = ::getcwd(cwd.data(), cwd.size()) ? std::string(cwd.data()) : std::string();
      it = made_absolute.emplace(dir, base + "/" + dir).first;
    }
    dir = it->second;
  }
  return dir;
}

std::vector<std::string> home_directories() {
  std::vector<std::string> out;
  std::string env_home = env_or("HOME", "");
  if (!env_home.empty() && env_home[0] == '/') out.push_back(env_home);
  std::vector<char> buf(4096);
  passwd pw{}, *res = nullptr;
  if (getpwuid_r(getuid(), &pw, buf.data(), buf.size(), &res) == 0 && res && res->pw_dir && res->pw_dir[0] == '/' &&
      std::string(res->pw_dir) != env_home)
    out.push_back(res->pw_dir);
  return out;
}

std::string choose_system_dir(std::string_view compiled, const char* test_override,
                              bool real_policy_exists) {
  if (test_override && *test_override && !real_policy_exists) return test_override;
  return std::string(compiled);
}

std::string system_dir() {
  const char* over = std::getenv("LASH_TEST_SYSTEM_DIR");
  if (!over || !*over) return LASH_SYSTEM_DIR;
  std::string real_conf = std::string(LASH_SYSTEM_DIR) + "/lash.conf";
  struct stat st;
  bool exists = ::lstat(real_conf.c_str(), &st) == 0 || errno != ENOENT;
  return choose_system_dir(LASH_SYSTEM_DIR, over, exists);
}

SearchPath session_search_path() {
  return SearchPath(lash_home() + "/profiles", system_dir() + "/profiles");
}

std::optional<SystemPolicyFile> read_system_policy(const std::string& dir) {
  SystemPolicyFile out;
  out.path = dir + "/lash.conf";
  unique_fd fd(::open(out.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd) {
    if (errno == ENOENT) return std::nullopt;
    out.error = std::strerror(errno);
    return out;
  }
  struct stat fst, dst;
  if (::fstat(fd.get(), &fst) != 0 || ::stat(dir.c_str(), &dst) != 0) {
    out.error = std::strerror(errno);
    return out;
  }
  if (!S_ISREG(fst.st_mode)) {
    out.error = "not a regular file";
    return out;
  }
  out.untrusted = trust_problem(out.path, {fst.st_uid, fst.st_mode}, dir, {dst.st_uid, dst.st_mode});
  if (!out.untrusted.empty()) return out;
  auto text = read_policy_file(out.path, kMaxPolicyFile);
  if (!text || !*text) {
    out.error = text ? "vanished while reading" : text.error().message();
    return out;
  }
  out.text = std::move(**text);
  return out;
}

SelectInputs session_inputs(std::optional<std::string> cli) {
  SelectInputs in;
  in.user_name = [] { return user_name(); };
  in.group_names = [] { return group_names(user_name()); };
  in.cli = std::move(cli);
  if (const char* v = std::getenv("LASH_PROFILE")) in.env = v;
  in.system = read_system_policy(system_dir());
  in.config_path = lash_home() + "/config";
  in.read_config = [path = in.config_path] { return read_policy_file(path, kMaxPolicyFile); };
  return in;
}

Result<Selection> select_session_profile(std::optional<std::string> cli) {
  SearchPath store = session_search_path();
  return select_profile(session_inputs(std::move(cli)), store);
}

Result<std::pair<Account, Selection>> select_user_profile(const std::string& user, SearchPath& store) {
  Account acc;
  std::vector<char> buf(16384);
  passwd pw{}, *res = nullptr;
  int rc = getpwnam_r(user.c_str(), &pw, buf.data(), buf.size(), &res);
  if (rc != 0 || !res) return Error{"no such user", user, rc, {}};
  acc.name = res->pw_name;
  acc.uid = res->pw_uid;
  acc.home = res->pw_dir ? res->pw_dir : "";
  acc.shell = res->pw_shell ? res->pw_shell : "";
  acc.groups = group_names(acc.name);
  // A login starts with HOME from the password database and no LASH_HOME.
  std::string lash_dir = (acc.home.empty() || acc.home[0] != '/' ? std::string("/") : acc.home) + "/.lash";
  store = SearchPath(lash_dir + "/profiles", system_dir() + "/profiles");
  SelectInputs in;
  in.user_name = [name = acc.name] { return name; };
  in.group_names = [groups = acc.groups] { return groups; };
  in.system = read_system_policy(system_dir());
  in.config_path = lash_dir + "/config";
  in.read_config = [path = in.config_path]() -> Result<std::optional<std::string>> {
    auto text = read_policy_file(path, kMaxPolicyFile);
    // Another user's directory the caller may not read: as if there were no choice,
    // which the caller is told (the selection's `where` names the file).
    if (!text && text.error().err == EACCES) return std::optional<std::string>{};
    return text;
  };
  auto sel = select_profile(in, store);
  if (!sel) return sel.error();
  return std::make_pair(std::move(acc), std::move(sel.value()));
}

}  // namespace lash::policy
