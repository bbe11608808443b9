#include "interactive/completion.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_set>

#include "base/strutil.h"
#include "exec/builtin_api.h"
#include "exec/policy_gate.h"
#include "policy/builtin_profiles.h"
#include "policy/engine.h"
#include "policy/session_select.h"

namespace lash::interactive {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// PATH directories' names, kept while the directory's mtime stays the same: a PATH of
// 5,000 programs is read once, not on every Tab. Whether a name is an executable file
// is asked only when it matches what is being completed (as bash does), then kept: the
// first Tab costs one readdir, not a stat of every program.
struct DirListing {
  struct timespec mtime {};
  std::vector<std::string> names;
  std::vector<signed char> executable;  // per name: -1 not asked yet, 0 no, 1 yes
};
std::map<std::string, DirListing>& dir_cache() {
  static std::map<std::string, DirListing> cache;
  return cache;
}

DirListing* listing_of(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return nullptr;
  auto& entry = dir_cache()[dir];
  if (entry.mtime.tv_sec == st.st_mtim.tv_sec && entry.mtime.tv_nsec == st.st_mtim.tv_nsec &&
      (entry.mtime.tv_sec || entry.mtime.tv_nsec))
    return &entry;
  entry.mtime = st.st_mtim;
  entry.names.clear();
  DIR* d = ::opendir(dir.c_str());
  if (d) {
    while (struct dirent* e = ::readdir(d)) {
      // A directory or a device is never a program; a symlink or an unknown type is
      // looked at when it matches.
      if (e->d_name[0] == '.' || e->d_type == DT_DIR || e->d_type == DT_CHR || e->d_type == DT_BLK ||
          e->d_type == DT_FIFO || e->d_type == DT_SOCK)
        continue;
      entry.names.emplace_back(e->d_name);
    }
    ::closedir(d);
  }
  entry.executable.assign(entry.names.size(), -1);
  return &entry;
}

bool is_executable_file(const std::string& full) {
  struct stat fs;
  return ::access(full.c_str(), X_OK) == 0 && ::stat(full.c_str(), &fs) == 0 && S_ISREG(fs.st_mode);
}

const policy::Engine* engine_of(exec::Shell& sh) {
  if (!sh.gate) return nullptr;
  return &sh.gate->engine();
}

bool program_allowed(exec::Shell& sh, const std::string& name, const std::string& path) {
  const policy::Engine* e = engine_of(sh);
  if (!e) return true;
  char real[PATH_MAX];
  std::string resolved = ::realpath(path.c_str(), real) ? real : path;
  return e->decide(policy::Action{policy::Spawn{name, resolved}}).allowed();
}

bool in_command_position(std::string_view line, size_t start) {
  size_t i = start;
  while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t')) --i;
  if (i == 0) return true;
  char c = line[i - 1];
  if (c == ';' || c == '|' || c == '&' || c == '(' || c == '`' || c == '{' || c == '!' || c == '\n') return true;
  // The word before: a keyword after which a command comes.
  size_t e = i;
  while (i > 0 && line[i - 1] != ' ' && line[i - 1] != '\t' && !std::strchr(";|&(", line[i - 1])) --i;
  std::string_view prev = line.substr(i, e - i);
  for (const char* kw : {"then", "else", "elif", "do", "if", "while", "until", "time", "command", "exec", "nohup"})
    if (prev == kw) return true;
  return false;
}

std::vector<std::string> words_before(std::string_view line, size_t start) {
  std::vector<std::string> w;
  std::string cur;
  for (size_t i = 0; i < start; ++i) {
    char c = line[i];
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) w.push_back(std::move(cur)), cur.clear();
    } else if (std::strchr(";|&(\n", c)) {
      if (!cur.empty()) cur.clear();
      w.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) w.push_back(cur);
  return w;
}

void add_files(exec::Shell& sh, const std::string& word, bool executables_only, std::vector<std::string>& out) {
  std::string dir_part, base;
  size_t slash = word.rfind('/');
  if (slash == std::string::npos) {
    base = word;
  } else {
    dir_part = word.substr(0, slash + 1);
    base = word.substr(slash + 1);
  }
  std::string dir = dir_part.empty() ? "." : dir_part;
  if (starts_with(dir, "~/") || dir == "~") {
    const std::string* home = sh.vars.get("HOME");
    if (home) dir = *home + dir.substr(1);
  }
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  size_t n = 0;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (name[0] == '.' && (base.empty() || base[0] != '.')) continue;
    if (!starts_with(name, base)) continue;
    if (++n > 10000) break;  // a huge directory: enough to choose from
    std::string full = dir + "/" + name;
    struct stat st;
    bool is_dir = ::stat(full.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    if (executables_only && !is_dir && ::access(full.c_str(), X_OK) != 0) continue;
    out.push_back(dir_part + name + (is_dir ? "/" : ""));
  }
  ::closedir(d);
}

std::vector<std::string> profile_names() {
  std::vector<std::string> names;
  policy::SearchPath store = policy::session_search_path();
  for (auto src : {policy::Source::user, policy::Source::system})
    for (auto& n : store.names(src)) names.push_back(n);
  for (const auto& b : policy::builtin_profiles()) names.emplace_back(b.name);
  return names;
}

}  // namespace

std::vector<std::string> complete(exec::Shell& sh, std::string_view line, size_t start, size_t end) {
  std::string word(line.substr(start, end - start));
  std::vector<std::string> out;
  // $NAME: variables.
  if (!word.empty() && word[0] == '$' && word.find('/') == std::string::npos) {
    std::string prefix = word.substr(1);
    bool brace = !prefix.empty() && prefix[0] == '{';
    if (brace) prefix.erase(0, 1);
    for (const auto& n : sh.vars.names())
      if (starts_with(n, prefix)) out.push_back((brace ? "${" : "$") + n + (brace ? "}" : ""));
  } else if (auto before = words_before(line, start); !before.empty() && before[0] == "profile" && before.size() <= 2 &&
                                                      !in_command_position(line, start)) {
    if (before.size() == 1) {
      for (const char* sub : {"list", "review", "permissions", "test", "create", "edit", "reload", "switch", "validate"})
        if (starts_with(sub, word)) out.push_back(sub);
    } else if (before[1] == "switch" || before[1] == "review" || before[1] == "permissions" || before[1] == "test" ||
               before[1] == "edit") {
      for (auto& n : profile_names())
        if (starts_with(n, word)) out.push_back(n);
    } else if (before[1] == "validate") {
      add_files(sh, word, false, out);
    }
  } else if (in_command_position(line, start) && word.find('/') == std::string::npos) {
    for (const auto* b : exec::all_builtins())
      if (starts_with(b->name, word)) out.emplace_back(b->name);
    for (const auto& [name, body] : sh.functions)
      if (starts_with(name, word)) out.push_back(name);
    for (const auto& [name, value] : sh.aliases)
      if (starts_with(name, word)) out.push_back(name);
    for (const char* kw : {"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
                           "in", "function"})
      if (!word.empty() && starts_with(kw, word)) out.push_back(kw);
    const std::string* path = sh.vars.get("PATH");
    std::unordered_set<std::string> seen(out.begin(), out.end());
    if (path)
      for (auto& dir : str::split(*path, ':')) {
        if (dir.empty() || dir[0] != '/') continue;  // a relative PATH entry is not listed
        DirListing* l = listing_of(dir);
        if (!l) continue;
        for (size_t i = 0; i < l->names.size(); ++i) {
          const std::string& name = l->names[i];
          if (!starts_with(name, word) || seen.count(name)) continue;
          std::string full = dir + "/" + name;
          if (l->executable[i] < 0) l->executable[i] = is_executable_file(full) ? 1 : 0;
          if (!l->executable[i] || !program_allowed(sh, name, full)) continue;
          seen.insert(name);
          out.push_back(name);
        }
      }
  } else if (in_command_position(line, start)) {
    add_files(sh, word, true, out);
  } else {
    add_files(sh, word, false, out);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool command_refused(exec::Shell& sh, std::string_view name_sv) {
  std::string name(name_sv);
  if (name.empty()) return false;
  for (const char* kw : {"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
                         "in", "function", "time", "!", "{", "}", "[["})
    if (name == kw) return false;
  if (name.find('/') == std::string::npos &&
      (exec::find_builtin(name) || sh.functions.count(name) || sh.aliases.count(name)))
    return false;
  std::string path = name.find('/') != std::string::npos ? name : sh.find_command(name, false);
  if (path.empty()) return false;  // not found: not the profile's refusal
  return !program_allowed(sh, name, path);
}

}  // namespace lash::interactive
