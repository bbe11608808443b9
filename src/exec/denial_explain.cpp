#include "exec/denial_explain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <set>

#include "policy/explain.h"
#include "policy/paths.h"

namespace lash::exec {
namespace {

constexpr std::string_view kRefusals[] = {"Permission denied", "Operation not permitted", "Read-only file system"};

bool has(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

bool path_like(std::string_view w) {
  return w.starts_with("/") || w.starts_with("./") || w.starts_with("../") || w.starts_with("~/");
}

// Trailing punctuation a message puts after a path ("/x:", "/x,", "/x.").
std::string_view trim_word(std::string_view w) {
  while (!w.empty() && (w.back() == ':' || w.back() == ',' || w.back() == ';' || w.back() == '.' ||
                        w.back() == ')' || w.back() == ']'))
    w.remove_suffix(1);
  while (!w.empty() && (w.front() == '(' || w.front() == '[')) w.remove_prefix(1);
  return w;
}

// Words that say the program was writing (creating, removing, renaming) the path.
bool says_write(std::string_view line) {
  for (std::string_view w : {"write", "writ", "creat", "output", "mkdir", "remov", "renam", "touch", "unlink",
                             "Read-only", "save", "delet", "cannot make", "install"})
    if (has(line, w)) return true;
  return false;
}
bool says_read(std::string_view line) {
  return has(line, "reading") || has(line, "read ") || has(line, "open directory") || has(line, "scandir") ||
         has(line, "stat ") || has(line, "access ");
}

std::string absolute(const std::string& name, const policy::SessionEnv& env) {
  if (name.starts_with("~/")) return policy::paths::normalize(env.home + name.substr(1));
  if (name.starts_with("/")) return policy::paths::normalize(name);
  return policy::paths::normalize(env.start_dir + "/" + name);
}

std::string parent_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

}  // namespace

bool reports_refusal(std::string_view line) {
  for (auto r : kRefusals)
    if (has(line, r)) return true;
  return false;
}

std::vector<std::string> names_in(std::string_view line) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](std::string_view w) {
    if (w.empty() || w.size() > PATH_MAX) return;
    std::string s(w);
    if (seen.insert(s).second) out.push_back(std::move(s));
  };
  // The first ": " field of "program: object: message" names the program that
  // speaks, not what it was refused.
  size_t skip_to = 0;
  if (size_t a = line.find(": "); a != std::string_view::npos && line.find(": ", a + 2) != std::string_view::npos)
    if (line.substr(0, a).find(' ') == std::string_view::npos) skip_to = a + 2;
  // Quoted words: a path, or (a command name, quoted without a slash) when the quote
  // is directly followed by ": " and the refusal (env: 'curl': Permission denied).
  static const std::pair<std::string_view, std::string_view> quotes[] = {
      {"'", "'"}, {"\"", "\""}, {"`", "'"}, {"\xe2\x80\x98", "\xe2\x80\x99"}, {"\xe2\x80\x9c", "\xe2\x80\x9d"}};
  for (size_t i = skip_to; i < line.size();) {
    bool matched = false;
    for (auto [open, close] : quotes) {
      if (line.compare(i, open.size(), open) != 0) continue;
      size_t start = i + open.size();
      size_t end = line.find(close, start);
      if (end == std::string_view::npos) break;
      std::string_view w = line.substr(start, end - start);
      std::string_view after = line.substr(end + close.size());
      if (w.find('/') != std::string_view::npos) add(w);
      else if (!w.empty() && w.find(' ') == std::string_view::npos && after.starts_with(": ") &&
               reports_refusal(after.substr(0, 40)))
        add(w);
      i = end + close.size();
      matched = true;
      break;
    }
    if (!matched) ++i;
  }
  // The field right before ": <refusal>" when it is one word: what was refused, a path
  // or a command name (dash's "sh: 1: curl: Permission denied").
  for (auto r : kRefusals) {
    size_t at = line.find(std::string(": ") + std::string(r));
    if (at == std::string_view::npos || at < skip_to) continue;
    size_t from = line.rfind(": ", at == 0 ? 0 : at - 1);
    from = from == std::string_view::npos || from < skip_to ? skip_to : from + 2;
    std::string_view w = line.substr(from, at - from);
    bool quoted = w.find_first_of(" \t'\"`") != std::string_view::npos || w.find("\xe2\x80") != std::string_view::npos;
    if (!w.empty() && !quoted && w.find_first_not_of("0123456789") != std::string_view::npos) add(w);
  }
  // Unquoted words that look like paths.
  std::string_view rest = line.substr(skip_to);
  size_t i = 0;
  while (i < rest.size()) {
    size_t j = rest.find_first_of(" \t", i);
    if (j == std::string_view::npos) j = rest.size();
    std::string_view w = trim_word(rest.substr(i, j - i));
    if (path_like(w) && w.find_first_of("'\"`") == std::string_view::npos) add(w);
    i = j + 1;
  }
  return out;
}

FileProbe real_file_probe(const std::string& path_var) {
  FileProbe p;
  p.realpath = [](const std::string& path) -> std::string {
    char buf[PATH_MAX];
    if (!::realpath(path.c_str(), buf)) return "";
    return buf;
  };
  p.kind = [](const std::string& path) -> char {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return 0;
    if (S_ISDIR(st.st_mode)) return 'd';
    if (S_ISREG(st.st_mode) && (st.st_mode & 0111)) return 'x';
    return 'f';
  };
  p.find_program = [path_var](const std::string& name) -> std::string {
    size_t i = 0;
    while (i <= path_var.size()) {
      size_t j = path_var.find(':', i);
      if (j == std::string::npos) j = path_var.size();
      std::string dir = path_var.substr(i, j - i);
      if (dir.empty()) dir = ".";
      std::string cand = dir + "/" + name;
      struct stat st{};
      if (::stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111)) return cand;
      i = j + 1;
    }
    return "";
  };
  return p;
}

unsigned granted_rights(const sandbox::SandboxPlan& plan, const std::string& path) {
  namespace r = sandbox::rights;
  if (!plan.restrict_fs) return r::read | r::write | r::execute;
  unsigned g = 0;
  for (const auto& rule : plan.paths)
    if (rule.file ? rule.path == path : policy::paths::beneath(path, rule.path)) g |= rule.rights;
  for (const auto& p : plan.protect)
    if (policy::paths::beneath(path, p)) g &= ~r::write;
  for (const auto& p : plan.noexec)
    if (policy::paths::beneath(path, p)) g &= ~r::execute;
  return g;
}

std::vector<Explained> explain_lines(const std::vector<std::string>& lines, const policy::Engine& engine,
                                     const sandbox::SandboxPlan& plan, const policy::SessionEnv& env,
                                     const FileProbe& probe) {
  namespace r = sandbox::rights;
  std::vector<Explained> out;
  std::set<std::pair<std::string, std::string>> done;
  for (const auto& line : lines) {
    if (!reports_refusal(line)) continue;
    for (const auto& name : names_in(line)) {
      std::string abs;
      if (name.find('/') == std::string::npos) {  // a command name: found over PATH
        abs = probe.find_program(name);
        if (abs.empty()) continue;
      } else {
        abs = absolute(name, env);
      }
      std::string real = probe.realpath(abs);
      std::string path = real.empty() ? abs : real;
      char kind = probe.kind(path);
      unsigned g = granted_rights(plan, path);
      Explained e;
      e.path = path;
      e.seen = line;
      bool protect = has(line, "Read-only file system");
      if (kind == 'x' && !(g & r::execute) && !says_read(line) && !says_write(line)) {
        e.right = "execute";
        policy::Decision d = engine.decide(policy::Spawn{path, path});
        bool in_writable = false;
        for (const auto& root : engine.facts().writable_roots)
          if (policy::paths::beneath(path, root.path)) in_writable = true;
        if (in_writable) {
          e.key = engine.where_set("process.exec_paths");
          e.change = "add " + parent_of(path) + " to [process] exec_paths";
        } else {
          e.key = d.allowed() ? engine.where_set("process.spawn_allowlist") : d.decided_by;
          e.change = d.decided_by.key == "process.spawn_denylist"
                         ? "take " + path + " out of [process] spawn_denylist"
                         : "add " + path + " to [process] spawn_allowlist";
        }
      } else if (kind != 0 && !(g & r::read) && !protect && !(says_write(line) && !says_read(line))) {
        e.right = kind == 'd' ? "read (list)" : "read";
        e.key = engine.where_set("filesystem.read_only");
        e.change = "add " + path + " to [filesystem] read_only";
      } else if (!(g & r::write) && (protect || says_write(line) || kind == 0)) {
        e.right = "write";
        policy::Decision d = engine.decide(policy::Redirect{path, policy::RedirectMode::write});
        if (d.decided_by.key == "filesystem.protect") {
          e.key = d.decided_by;
          e.change = "take the entry covering " + path + " out of [filesystem] protect";
        } else {
          e.key = engine.where_set("filesystem.read_write");
          e.change = "add " + (kind == 'd' ? path : parent_of(path)) + " to [filesystem] read_write";
        }
      } else {
        continue;  // the plan grants what the program needed: not this profile's refusal
      }
      if (done.insert({e.path, e.right}).second) out.push_back(std::move(e));
    }
  }
  return out;
}

std::string summary_text(const std::vector<Explained>& ex, size_t seen, bool truncated) {
  std::string out = "lash: explain-denials: ";
  if (seen == 0) return out + "no program of this session reported a refusal on its error output\n";
  out += std::to_string(seen) + " line" + (seen == 1 ? "" : "s") + " of error output reported a refusal" +
         (truncated ? " (only the first ones were kept)" : "") + "; ";
  if (ex.empty())
    return out + "none names a path this profile refuses (a file mode, or a refusal that names no path)\n";
  out += std::to_string(ex.size()) + " explained by the profile:\n";
  for (const auto& e : ex) {
    out += "  " + e.right + " " + policy::explain::display(e.path) + ": " + e.key.key + " [" + e.key.source_text() + "] would allow it (" +
           e.change + ")\n";
    std::string seen_line = e.seen.size() > 200 ? e.seen.substr(0, 200) + "..." : e.seen;
    out += "    seen: " + policy::explain::display(seen_line) + "\n";
  }
  return out;
}

}  // namespace lash::exec
