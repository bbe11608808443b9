// libFuzzer target for pathname expansion (exec/pattern.h glob_expand) over a
// directory tree held in memory. Input: PATTERN '\n' then one relative path per
// line (every prefix of a path is a directory). Besides never crashing: the result
// is sorted and without duplicates, and names only what exists; and for a simple
// pattern (relative, no "//", no bracket next to a '/'), it is exactly the set of
// paths of the tree that pattern_match() in pathname mode accepts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "exec/pattern.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// "a//b" names what "a/b" does.
std::string squeeze(const std::string& path) {
  std::string out;
  for (char c : path)
    if (c != '/' || out.empty() || out.back() != '/') out += c;
  return out;
}

struct Tree {
  std::set<std::string> files, dirs;  // relative paths without a trailing '/'

  void add(std::string_view path) {
    if (path.empty() || path.front() == '/' || path.back() == '/' || path.find("//") != std::string_view::npos ||
        path.find('\0') != std::string_view::npos)  // a file name holds no NUL
      return;
    // A directory listing never holds . or .. (list_dir_direct leaves them out).
    const std::string slashed = "/" + std::string(path) + "/";
    if (slashed.find("/./") != std::string::npos || slashed.find("/../") != std::string::npos) return;
    for (size_t s = path.find('/'); s != std::string_view::npos; s = path.find('/', s + 1)) {
      dirs.emplace(path.substr(0, s));
      files.erase(std::string(path.substr(0, s)));  // "a" then "a/b": a is a directory
    }
    if (!dirs.count(std::string(path))) files.emplace(path);
  }
  bool list(const std::string& dir, std::vector<std::string>& names) const {
    if (!dir.empty() && dir[0] == '/') return false;  // the tree is relative ("\\/x" starts at /)
    std::string d = dir == "." ? "" : squeeze(dir);  // glob_expand lists "." for a relative start
    while (!d.empty() && d.back() == '/') d.pop_back();
    if (!d.empty() && !dirs.count(d)) return false;
    std::string prefix = d.empty() ? "" : d + "/";
    std::set<std::string> out;
    for (const auto* set : {&files, &dirs})
      for (const auto& p : *set)
        if (p.size() > prefix.size() && p.compare(0, prefix.size(), prefix) == 0 &&
            p.find('/', prefix.size()) == std::string::npos)
          out.insert(p.substr(prefix.size()));
    names.assign(out.begin(), out.end());
    return true;
  }
  bool exists(const std::string& path) const {
    if (!path.empty() && path[0] == '/') return false;
    std::string p = squeeze(path);
    bool want_dir = false;
    while (!p.empty() && p.back() == '/') {
      p.pop_back();
      want_dir = true;
    }
    return dirs.count(p) || (!want_dir && files.count(p));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  size_t nl = in.find('\n');
  std::string_view pat = in.substr(0, nl);
  if (pat.size() > 200) return 0;
  Tree tree;
  int count = 0;
  while (nl != std::string_view::npos && count++ < 64) {
    size_t start = nl + 1;
    nl = in.find('\n', start);
    tree.add(in.substr(start, nl == std::string_view::npos ? nl : nl - start));
  }

  auto list = [&](const std::string& dir, std::vector<std::string>& names) { return tree.list(dir, names); };
  auto exists = [&](const std::string& p) { return tree.exists(p); };
  std::vector<std::string> got = lash::exec::glob_expand(pat, list, exists);

  check(std::is_sorted(got.begin(), got.end()));
  check(std::adjacent_find(got.begin(), got.end()) == got.end());
  if (pat.empty() || !lash::exec::has_glob_chars(pat)) {
    check(got.empty());  // the caller keeps such a word as it is
    return 0;
  }
  const bool simple = pat.front() != '/' && pat.find("//") == std::string_view::npos &&
                      pat.find("\\/") == std::string_view::npos &&
                      (pat.find('[') == std::string_view::npos || pat.find('/') == std::string_view::npos);
  // A component that starts with a literal '.' also matches . and .. (as dash),
  // which the tree does not hold: such patterns are only checked for soundness.
  const std::string slashed = "/" + std::string(pat);
  const bool dot_component =
      slashed.find("/.") != std::string::npos || slashed.find("/\\.") != std::string::npos;
  for (const std::string& r : got) {
    const bool dot_dirs = ("/" + r + "/").find("/./") != std::string::npos ||
                          ("/" + r + "/").find("/../") != std::string::npos;
    if (pat.front() != '/' && !dot_dirs && !tree.exists(r)) fprintf(stderr, "not in the tree: '%s'\n", r.c_str());
    if (pat.front() != '/' && !dot_dirs) check(tree.exists(r));
    if (simple) check(lash::exec::pattern_match(pat, r, true));
  }
  if (simple && !dot_component) {
    // Every path of the tree the pattern matches, with the same number of
    // components; a pattern ending in '/' names directories, written with it.
    const bool dir_only = pat.back() == '/';
    std::vector<std::string> want;
    for (const auto* set : {&tree.files, &tree.dirs}) {
      if (dir_only && set == &tree.files) continue;
      for (const auto& p : *set) {
        std::string name = dir_only ? p + "/" : p;
        if (lash::exec::pattern_match(pat, name, true)) want.push_back(name);
      }
    }
    std::sort(want.begin(), want.end());
    if (got != want) {
      for (const auto& g : got) fprintf(stderr, "got  '%s'\n", g.c_str());
      for (const auto& w : want) fprintf(stderr, "want '%s'\n", w.c_str());
    }
    check(got == want);
  }
  return 0;
}
