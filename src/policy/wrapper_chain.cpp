#include "policy/wrapper_chain.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "base/strutil.h"
#include "policy/paths.h"

namespace lash::policy {
namespace {

constexpr size_t kHead = 16 * 1024;  // shims and wrappers are small; more is not a wrapper
constexpr int kMaxDepth = 4;         // #! chains deeper than this are not followed

// The first kHead bytes of PATH, or "" when it cannot be read or is not a script.
std::string script_head(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return "";
  std::string buf(kHead, '\0');
  ssize_t n;
  do n = ::pread(fd, buf.data(), buf.size(), 0);
  while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n < 2 || buf[0] != '#' || buf[1] != '!') return "";
  buf.resize(static_cast<size_t>(n));
  return buf;
}

std::string real_of(const std::string& p) {
  char* r = ::realpath(p.c_str(), nullptr);
  if (!r) return "";
  std::string out(r);
  std::free(r);
  return out;
}

bool is_executable_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH));
}

bool is_shell(std::string_view base) {
  return base == "sh" || base == "bash" || base == "dash" || base == "zsh" || base == "ksh" || base == "mksh";
}

// The #! line's interpreter and, for "/usr/bin/env [-S] NAME", NAME resolved over PATH.
std::vector<std::string> interpreters_of(const std::string& head, const SessionEnv& env) {
  std::string line = head.substr(2, head.find('\n') == std::string::npos ? std::string::npos : head.find('\n') - 2);
  std::vector<std::string> words;
  for (const auto& w : str::split(line, ' '))
    for (const auto& t : str::split(w, '\t'))
      if (!t.empty()) words.emplace_back(t);
  std::vector<std::string> out;
  if (words.empty()) return out;
  out.push_back(words[0]);
  if (paths::basename(words[0]) != "env") return out;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i][0] == '-') continue;  // -S, -i: the program comes after the options
    if (words[i].find('=') != std::string::npos) continue;  // NAME=VALUE assignments
    if (words[i].find('/') != std::string::npos) {
      out.push_back(words[i]);
    } else if (auto r = resolve_on_path(words[i], env.path_var, FsProbe::system())) {
      out.push_back(*r);
    } else {
      out.push_back(words[i]);  // not found: named as it is written
    }
    break;
  }
  return out;
}

// Absolute programs a shell wrapper hands over to with `exec "/path"` or `exec /path`
// (what pyenv, asdf and rbenv shims do). Other mentions of paths are not followed.
std::vector<std::string> exec_targets(const std::string& head) {
  std::vector<std::string> out;
  for (size_t at = head.find("exec "); at != std::string::npos; at = head.find("exec ", at + 5)) {
    if (at > 0 && !(head[at - 1] == ' ' || head[at - 1] == '\t' || head[at - 1] == '\n' || head[at - 1] == ';'))
      continue;
    size_t s = head.find_first_not_of(" \t", at + 5);
    if (s == std::string::npos) break;
    bool quoted = head[s] == '"' || head[s] == '\'';
    if (quoted) ++s;
    if (s >= head.size() || head[s] != '/') continue;
    size_t e = head.find_first_of(quoted ? "\"'" : " \t\n;", s);
    std::string target = head.substr(s, e == std::string::npos ? std::string::npos : e - s);
    if (target.find('$') == std::string::npos && is_executable_file(target)) out.push_back(target);
  }
  return out;
}

}  // namespace

std::unordered_map<std::string, WrapperGap> find_wrapper_gaps(const SessionFacts& facts, const SessionEnv& env) {
  std::unordered_map<std::string, WrapperGap> gaps;
  auto allowed = [&](const std::string& real) {
    if (facts.allow_real.count(real)) return true;
    for (const auto& r : facts.exec_roots)
      if (paths::beneath(real, r.path)) return true;
    return false;
  };
  for (const std::string& start : facts.allow_real) {
    WrapperGap g;
    g.chain.push_back(start);
    std::string cur = start;
    for (int depth = 0; depth < kMaxDepth && g.missing.empty(); ++depth) {
      std::string head = script_head(cur);
      if (head.empty()) break;
      std::vector<std::string> next = interpreters_of(head, env);
      std::string last_interp;
      for (const std::string& n : next) {
        std::string real = real_of(n);
        g.chain.push_back(real.empty() ? n : real);
        if (real.empty() || !allowed(real)) {
          g.missing = n;
          break;
        }
        last_interp = real;
      }
      if (!g.missing.empty() || last_interp.empty()) break;
      if (is_shell(paths::basename(last_interp))) {
        for (const std::string& t : exec_targets(head)) {
          std::string real = real_of(t);
          g.chain.push_back(real.empty() ? t : real);
          if (real.empty() || !allowed(real)) {
            g.missing = t;
            break;
          }
        }
      }
      cur = last_interp;  // an interpreter that is itself a script
    }
    if (!g.missing.empty()) gaps.emplace(start, std::move(g));
  }
  return gaps;
}

std::vector<std::string> shebang_programs(const std::string& head, const SessionEnv& env) {
  std::vector<std::string> out;
  if (head.size() < 2 || head[0] != '#' || head[1] != '!') return out;
  for (const std::string& n : interpreters_of(head, env)) {
    std::string real = real_of(n);
    out.push_back(real.empty() ? n : real);
  }
  return out;
}

std::string chain_text(const WrapperGap& g) {
  std::string out;
  for (const auto& c : g.chain) out += (out.empty() ? "" : " -> ") + c;
  return out;
}

}  // namespace lash::policy
