#include "sandbox/closure_cache.h"

#include <cstdio>
#include <string_view>

#include "base/state_cache.h"

namespace lash::sandbox {
namespace {

namespace sc = state_cache;

constexpr std::string_view kHeader = "lash exec-closure cache 2";

char role_letter(ExecFile::Role r) {
  return r == ExecFile::Role::program ? 'p' : r == ExecFile::Role::interpreter ? 'i' : 'l';
}

std::optional<ExecFile::Role> role_of(std::string_view s) {
  if (s == "p") return ExecFile::Role::program;
  if (s == "i") return ExecFile::Role::interpreter;
  if (s == "l") return ExecFile::Role::library;
  return std::nullopt;
}

}  // namespace

std::string closure_cache_file(const std::string& dir, const std::vector<std::string>& programs) {
  char name[32];
  std::snprintf(name, sizeof name, "closure-%016llx", static_cast<unsigned long long>(sc::hash_of(programs)));
  return dir + "/" + name;
}

std::optional<std::string> closure_cache_text(const std::vector<std::string>& programs, const ExecClosure& closure,
                                              int64_t computed_at_ns) {
  std::string out(kHeader);
  out += '\n';
  out += "U\t" + sc::credentials() + '\n';
  for (const std::string& p : programs) {
    if (!sc::one_field(p)) return std::nullopt;
    out += "P\t" + p + '\n';
  }
  for (const std::string& d : closure.depends_on) {
    auto w = sc::witness_line(d, computed_at_ns);
    if (!w) return std::nullopt;
    out += *w + '\n';
  }
  for (const ExecFile& f : closure.files) {
    if (!sc::one_field(f.path) || !sc::one_field(f.needed_by)) return std::nullopt;
    out += std::string("F\t") + role_letter(f.role) + '\t' + f.path + '\t' + f.needed_by + '\n';
  }
  for (const ExecFile& f : closure.data_dirs) {
    if (!sc::one_field(f.path) || !sc::one_field(f.needed_by)) return std::nullopt;
    out += "D\t" + f.path + '\t' + f.needed_by + '\n';
  }
  for (const std::string& p : closure.problems) {
    if (!sc::one_field(p)) return std::nullopt;
    out += "X\t" + p + '\n';
  }
  out += "end\n";
  return out;
}

std::optional<ExecClosure> closure_from_cache_text(const std::string& text, const std::vector<std::string>& programs) {
  std::string_view rest(text);
  auto next_line = [&](std::string_view& line) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return false;  // the last line ends with one too
    line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    return true;
  };
  std::string_view line;
  if (!next_line(line) || line != kHeader) return std::nullopt;
  if (!next_line(line) || line != "U\t" + sc::credentials()) return std::nullopt;  // found by someone else
  ExecClosure c;
  size_t program = 0;
  bool ended = false;
  while (next_line(line)) {
    if (ended) return std::nullopt;  // nothing after "end"
    if (line == "end") {
      ended = true;
      continue;
    }
    std::vector<std::string_view> f = sc::fields(line);
    if (f[0] == "P" && f.size() == 2) {
      // The same programs in the same order (a hash collision of the file name).
      if (program >= programs.size() || programs[program] != f[1]) return std::nullopt;
      ++program;
    } else if (f[0] == "W") {
      std::string path;
      if (!sc::witness_holds(f, &path)) return std::nullopt;  // changed: compute again
      c.depends_on.push_back(std::move(path));
    } else if (f[0] == "F" && f.size() == 4) {
      auto role = role_of(f[1]);
      if (!role || f[2].empty() || f[2][0] != '/') return std::nullopt;
      c.files.push_back({std::string(f[2]), *role, std::string(f[3])});
    } else if (f[0] == "D" && f.size() == 3) {
      if (f[1].empty() || f[1][0] != '/') return std::nullopt;
      c.data_dirs.push_back({std::string(f[1]), ExecFile::Role::library, std::string(f[2])});
    } else if (f[0] == "X" && f.size() == 2) {
      c.problems.emplace_back(f[1]);
    } else {
      return std::nullopt;
    }
  }
  if (!ended || !rest.empty() || program != programs.size() || c.depends_on.empty()) return std::nullopt;
  return c;
}

ExecClosure cached_exec_closure(const std::string& dir, const std::vector<std::string>& programs) {
  if (dir.empty()) return resolve_exec_closure(programs);
  std::string file = closure_cache_file(dir, programs);
  std::string name = file.substr(dir.size() + 1);
  if (auto text = sc::read_file(dir, name))
    if (auto c = closure_from_cache_text(*text, programs)) return std::move(*c);
  int64_t started = sc::now_ns();
  ExecClosure c = resolve_exec_closure(programs);
  if (auto text = closure_cache_text(programs, c, started)) sc::write_file(dir, name, *text);
  return c;
}

}  // namespace lash::sandbox
