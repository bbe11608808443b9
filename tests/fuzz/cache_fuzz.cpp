// libFuzzer target for the readers of lash's caches in $LASH_HOME/cache: the
// exec-closure cache (sandbox/closure_cache.h), the allowlist's real paths
// (policy/facts_cache.h) and the lines they share (base/state_cache.h). The
// caches are trusted only from the user's own files, but a cache file may be cut
// short, hand-edited or written by another version: any text must be refused or
// read, never crash.
//
// To get past the checks a real file would pass, the input may use two
// placeholders: a line "U\t@" becomes this process's credentials line, and a line
// "W\t@\tPATH" becomes the witness line of PATH as it is now. The inputs a file is
// compared with come from the text too: the programs are its "P" lines, the PATH
// its "K" line, the spawn lists its "A" and "N" lines.
//
// Round trip: an exec closure read from a text, written again (closure_cache_text)
// and read back, is the same closure.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/state_cache.h"
#include "policy/facts_cache.h"
#include "sandbox/closure_cache.h"

namespace {

namespace sc = lash::state_cache;
using lash::sandbox::ExecClosure;
using lash::sandbox::ExecFile;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

bool same_files(const std::vector<ExecFile>& a, const std::vector<ExecFile>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].path != b[i].path || a[i].role != b[i].role || a[i].needed_by != b[i].needed_by) return false;
  return true;
}

bool same(const ExecClosure& a, const ExecClosure& b) {
  return same_files(a.files, b.files) && same_files(a.data_dirs, b.data_dirs) && a.problems == b.problems &&
         a.depends_on == b.depends_on;
}

struct Inputs {
  std::string text;  // with the placeholders replaced
  std::vector<std::string> programs;
  lash::policy::Profile profile;
  lash::policy::SessionEnv env;
};

Inputs expand(std::string_view in) {
  Inputs out;
  static const std::string credentials = sc::credentials();
  const int64_t now = sc::now_ns();
  while (!in.empty()) {
    size_t nl = in.find('\n');
    std::string_view line = in.substr(0, nl);
    bool ended = nl != std::string_view::npos;
    in.remove_prefix(ended ? nl + 1 : in.size());
    std::string text(line);
    if (line == "U\t@") {
      text = "U\t" + credentials;
    } else if (line.substr(0, 4) == "W\t@\t") {
      if (auto w = sc::witness_line(std::string(line.substr(4)), now)) text = *w;
    } else if (line.substr(0, 2) == "P\t") {
      out.programs.emplace_back(line.substr(2));
    } else if (line.substr(0, 2) == "K\t") {
      out.env.path_var = std::string(line.substr(2));
    } else if (line.substr(0, 2) == "A\t") {
      out.profile.spawn_allowlist.value.emplace_back(line.substr(2));
    } else if (line.substr(0, 2) == "N\t") {
      out.profile.spawn_denylist.value.emplace_back(line.substr(2));
    }
    out.text += text;
    if (ended) out.text += '\n';
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Inputs in = expand(std::string_view(reinterpret_cast<const char*>(data), size));

  // The shared pieces, on every line.
  std::string_view rest(in.text);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    auto f = sc::fields(rest.substr(0, nl));
    check(!f.empty());
    if (f[0] == "W") {
      std::string path;
      if (sc::witness_holds(f, &path)) check(!path.empty() && path == f[8]);
    }
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }

  if (auto c = lash::sandbox::closure_from_cache_text(in.text, in.programs)) {
    check(!c->depends_on.empty());
    for (const ExecFile& f : c->files) check(!f.path.empty() && f.path[0] == '/');
    for (const ExecFile& f : c->data_dirs) check(!f.path.empty() && f.path[0] == '/');
    // Written again and read back: the same answer. (Not written when a dependency
    // changed within the clock's slack, or a field holds a carriage return.)
    if (auto again = lash::sandbox::closure_cache_text(in.programs, *c, sc::now_ns())) {
      auto c2 = lash::sandbox::closure_from_cache_text(*again, in.programs);
      check(c2 && same(*c, *c2));
    }
  }

  if (auto f = lash::policy::facts_from_cache_text(in.text, in.profile, in.env)) {
    for (const auto& real : f->allow_real) check(!real.empty() && real[0] == '/');
    for (const auto& real : f->deny_real) check(!real.empty() && real[0] == '/');
    for (const auto& [name, real] : f->allow_real_by_name) check(f->allow_real.count(real) == 1);
  }
  return 0;
}
