// Unit tests of exec/pattern. Expected results were checked against dash and bash
// (`case` and ${x%p} ${x%%p} ${x#p} ${x##p}) in the C locale.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "exec/pattern.h"

using lash::exec::glob_expand;
using lash::exec::has_glob_chars;
using lash::exec::list_dir_direct;
using lash::exec::pattern_match;
using lash::exec::pattern_trim;
using lash::exec::pattern_unescape;
using lash::exec::TrimKind;

namespace {
bool m(std::string_view p, std::string_view t) { return pattern_match(p, t); }
bool pm(std::string_view p, std::string_view t) { return pattern_match(p, t, true); }
std::string ss(std::string_view t, std::string_view p) { return pattern_trim(t, p, TrimKind::small_suffix); }
std::string ls(std::string_view t, std::string_view p) { return pattern_trim(t, p, TrimKind::large_suffix); }
std::string sp(std::string_view t, std::string_view p) { return pattern_trim(t, p, TrimKind::small_prefix); }
std::string lp(std::string_view t, std::string_view p) { return pattern_trim(t, p, TrimKind::large_prefix); }
}  // namespace

TEST_SUITE("pattern") {

TEST_CASE("literal and wildcards") {
  CHECK(m("", ""));
  CHECK_FALSE(m("", "a"));
  CHECK(m("abc", "abc"));
  CHECK_FALSE(m("abc", "abd"));
  CHECK_FALSE(m("abc", "ab"));
  CHECK_FALSE(m("ab", "abc"));
  CHECK(m("*", ""));
  CHECK(m("*", "anything"));
  CHECK(m("**", "x"));
  CHECK(m("?", "a"));
  CHECK_FALSE(m("?", ""));
  CHECK_FALSE(m("?", "ab"));
  CHECK(m("??", "ab"));
  CHECK(m("*.c", "main.c"));
  CHECK(m("*.c", ".c"));
  CHECK_FALSE(m("*.c", "main.h"));
  CHECK_FALSE(m("*.c", "main.cc"));
  CHECK(m("a*b*c", "abc"));
  CHECK(m("a*b*c", "aXXbYYc"));
  CHECK(m("a*b*c", "abcbc"));
  CHECK_FALSE(m("a*b*c", "acb"));
  CHECK(m("*a*", "banana"));
  CHECK(m("*ana", "banana"));
  CHECK(m("b*na", "banana"));
  CHECK(m("*n?n*", "banana"));
  CHECK_FALSE(m("*x*", "banana"));
  CHECK(m("a?c*", "abcdef"));
  CHECK(m("*?", "a"));
  CHECK_FALSE(m("*??", "a"));
  CHECK(m("*/", "dir/"));
  CHECK(m("*", "a/b"));  // not pathname mode: * matches '/'
  CHECK(m("a?b", "a/b"));
  CHECK(m(".*", ".hidden"));
  CHECK(m("*", ".hidden"));
}

TEST_CASE("backslash escapes") {
  CHECK(m("\\*", "*"));
  CHECK_FALSE(m("\\*", "a"));
  CHECK(m("\\?", "?"));
  CHECK_FALSE(m("\\?", "a"));
  CHECK(m("\\[a]", "[a]"));
  CHECK_FALSE(m("\\[a]", "a"));
  CHECK(m("\\a", "a"));
  CHECK(m("\\\\", "\\"));
  CHECK(m("\\", "\\"));    // a lone trailing backslash is literal
  CHECK(m("a\\", "a\\"));
  CHECK(m("*\\*", "abc*"));
  CHECK_FALSE(m("*\\*", "abc"));
}

TEST_CASE("bracket expressions") {
  CHECK(m("[abc]", "b"));
  CHECK_FALSE(m("[abc]", "d"));
  CHECK(m("[a-c]x", "bx"));
  CHECK_FALSE(m("[a-c]", "d"));
  CHECK(m("[!a-c]", "d"));
  CHECK_FALSE(m("[!a-c]", "a"));
  // In POSIX mode '^' is an ordinary member of the set, as in dash; otherwise it
  // negates, as in bash.
  lash::exec::pattern_caret_negates = false;
  CHECK(m("[^a]", "a"));
  CHECK(m("[^a]", "^"));
  CHECK_FALSE(m("[^a]", "b"));
  lash::exec::pattern_caret_negates = true;
  CHECK_FALSE(m("[^a]", "a"));
  CHECK(m("[^a]", "^"));
  CHECK(m("[^a]", "b"));
  CHECK(m("[]a]", "]"));
  CHECK(m("[]a]", "a"));
  CHECK_FALSE(m("[!]a]", "]"));
  CHECK(m("[!]a]", "b"));
  CHECK(m("[]]", "]"));
  CHECK(m("[!]]", "a"));
  CHECK(m("[a-]", "-"));
  CHECK(m("[-a]", "-"));
  CHECK_FALSE(m("[z-a]", "m"));
  CHECK(m("[\\]]", "]"));
  CHECK(m("[a\\-z]", "-"));
  CHECK_FALSE(m("[a\\-z]", "m"));
  CHECK(m("[[]", "["));
  CHECK(m("[*]", "*"));
  CHECK_FALSE(m("[*]", "a"));
  CHECK(m("[?]", "?"));
  CHECK(m("[!a]*", "bcd"));
}

TEST_CASE("unmatched [ is literal") {
  CHECK(m("[", "["));
  CHECK(m("[a", "[a"));
  CHECK(m("a[", "a["));
  CHECK(m("*[", "x["));
  CHECK(m("[!", "[!"));
  CHECK(m("[]", "[]"));
  CHECK_FALSE(m("[a-z", "b"));
  CHECK(m("[a-z", "[a-z"));
  CHECK(m("[[:alpha:]", "[a"));  // '[' literal, then the bracket [:alpha:]
  CHECK_FALSE(m("[[:alpha:]", "a"));
}

TEST_CASE("character classes") {
  CHECK(m("[[:alpha:]]", "a"));
  CHECK(m("[[:alpha:]]", "Z"));
  CHECK_FALSE(m("[[:alpha:]]", "1"));
  CHECK(m("[[:digit:]]", "7"));
  CHECK(m("[[:alnum:]]", "7"));
  CHECK(m("[[:alnum:]]", "q"));
  CHECK_FALSE(m("[[:alnum:]]", "_"));
  CHECK(m("[[:upper:]]", "Q"));
  CHECK_FALSE(m("[[:upper:]]", "q"));
  CHECK(m("[[:lower:]]", "q"));
  CHECK(m("[[:space:]]", " "));
  CHECK(m("[[:space:]]", "\n"));
  CHECK(m("[[:space:]]", "\v"));
  CHECK(m("[[:blank:]]", "\t"));
  CHECK_FALSE(m("[[:blank:]]", "\n"));
  CHECK(m("[[:punct:]]", "!"));
  CHECK(m("[[:punct:]]", "~"));
  CHECK_FALSE(m("[[:punct:]]", "a"));
  CHECK_FALSE(m("[[:punct:]]", " "));
  CHECK(m("[[:print:]]", " "));
  CHECK_FALSE(m("[[:graph:]]", " "));
  CHECK(m("[[:graph:]]", "x"));
  CHECK(m("[[:cntrl:]]", "\x01"));
  CHECK(m("[[:cntrl:]]", "\x7f"));
  CHECK(m("[[:xdigit:]]", "F"));
  CHECK_FALSE(m("[[:xdigit:]]", "g"));
  CHECK_FALSE(m("[[:alpha:]]", "\xe9"));  // C locale: bytes >= 128 are in no class
  CHECK(m("[![:alpha:]]", "\xe9"));
  CHECK(m("[[:alpha:][:digit:]]", "5"));
  CHECK(m("[[:alpha:]-z]", "-"));
  CHECK(m("[![:digit:]]*", "x12"));
  CHECK_FALSE(m("[[:foo:]]", "a"));  // unknown class matches nothing
  CHECK(m("[[:]", ":"));
  CHECK(m("[[.a.]]", "a"));           // collating symbol, as bash
  CHECK(m("[[=a=]]", "a"));           // equivalence class, as bash
  CHECK(m("[[.a.]-c]", "b"));
}

TEST_CASE("bytes beyond ASCII") {
  CHECK(m("?", "\xff"));
  CHECK(m("[\x80-\xff]", "\xc3"));
  CHECK(m("*\xc3\xa9", "caf\xc3\xa9"));
}

TEST_CASE("pathname mode") {
  CHECK(pm("*", "abc"));
  CHECK_FALSE(pm("*", "a/b"));
  CHECK_FALSE(pm("a?b", "a/b"));
  CHECK(pm("a/b", "a/b"));
  CHECK(pm("*/*", "a/b"));
  CHECK_FALSE(pm("*", ".hidden"));
  CHECK_FALSE(pm("?hidden", ".hidden"));
  CHECK_FALSE(pm("[.]hidden", ".hidden"));
  CHECK(pm(".*", ".hidden"));
  CHECK(pm("\\.*", ".hidden"));
  CHECK_FALSE(pm("a/*", "a/.b"));
  CHECK(pm("a/.*", "a/.b"));
  CHECK(pm("x*", "x.y"));  // only a leading dot is special
  CHECK_FALSE(pm("a[/]b", "a/b"));  // '/' in brackets: the '[' is literal
  CHECK(pm("a[/]b", "a[/]b"));
  CHECK(pm("*", ""));  // as fnmatch(FNM_PATHNAME)
  CHECK(pm("", ""));
  CHECK(pm("*/", "dir/"));
  CHECK_FALSE(pm("*/", "dir"));
  CHECK(pm("abc", "abc"));
  CHECK_FALSE(pm(".", "x"));
}

TEST_CASE("has_glob_chars") {
  CHECK(has_glob_chars("*"));
  CHECK(has_glob_chars("a?"));
  CHECK(has_glob_chars("[ab]"));
  CHECK(has_glob_chars("x/[!a]/y"));
  CHECK_FALSE(has_glob_chars("abc"));
  CHECK_FALSE(has_glob_chars(""));
  CHECK_FALSE(has_glob_chars("\\*"));
  CHECK_FALSE(has_glob_chars("a\\?b"));
  CHECK_FALSE(has_glob_chars("\\[ab]"));
  CHECK_FALSE(has_glob_chars("["));
  CHECK_FALSE(has_glob_chars("[ab"));
  CHECK_FALSE(has_glob_chars("]"));
  CHECK(has_glob_chars("\\\\*"));
  CHECK_FALSE(has_glob_chars("\\"));
}

TEST_CASE("pattern_unescape") {
  CHECK(pattern_unescape("a\\*b") == "a*b");
  CHECK(pattern_unescape("\\\\") == "\\");
  CHECK(pattern_unescape("abc") == "abc");
  CHECK(pattern_unescape("a\\") == "a\\");
  CHECK(pattern_unescape("\\[x\\]") == "[x]");
  CHECK(pattern_unescape("*") == "*");
  CHECK(pattern_unescape("") == "");
}

TEST_CASE("trim: suffixes") {
  CHECK(ss("file.tar.gz", ".*") == "file.tar");
  CHECK(ls("file.tar.gz", ".*") == "file");
  CHECK(ss("/usr/local/bin", "/*") == "/usr/local");
  CHECK(ls("/usr/local/bin", "/*") == "");
  CHECK(ss("abc", "*") == "abc");  // the empty suffix matches
  CHECK(ls("abc", "*") == "");
  CHECK(ss("abc", "x") == "abc");
  CHECK(ss("abc", "c") == "ab");
  CHECK(ls("abc", "c") == "ab");
  CHECK(ss("abc", "abc") == "");
  CHECK(ss("abc", "abcd") == "abc");
  CHECK(ss("aXbXc", "X*") == "aXb");
  CHECK(ls("aXbXc", "X*") == "a");
  CHECK(ss("aaa", "a*") == "aa");
  CHECK(ls("aaa", "a*") == "");
  CHECK(ss("aaa", "?") == "aa");
  CHECK(ss("abcabc", "b*c") == "abca");
  CHECK(ls("abcabc", "b*c") == "a");
  CHECK(ss("x.c", "*.c") == "x");
  CHECK(ss("", "*") == "");
  CHECK(ls("", "") == "");
  CHECK(ss("abc", "") == "abc");
  CHECK(ss("a*b", "\\*b") == "a");
  CHECK(ss("a1b2", "[0-9]*") == "a1b");
  CHECK(ls("a1b2", "[0-9]*") == "a");
  CHECK(ss("dir/", "/") == "dir");
  CHECK(ss("a.b.c.d", "*.*") == "a.b.c");  // shortest suffix with two stars
  CHECK(ls("a.b.c.d", "*.*") == "");
  CHECK(ss("a.b.c.d", ".*.*") == "a.b");
  CHECK(ls("a.b.c.d", ".*.*") == "a");
  CHECK(ss("xaybyc", "a*b*") == "x");
}

TEST_CASE("trim: prefixes") {
  CHECK(sp("/usr/local/bin", "*/") == "usr/local/bin");
  CHECK(lp("/usr/local/bin", "*/") == "bin");
  CHECK(sp("a/b/c", "*/") == "b/c");
  CHECK(lp("a/b/c", "*/") == "c");
  CHECK(lp("abc", "*/") == "abc");
  CHECK(sp("abc", "*") == "abc");
  CHECK(lp("abc", "*") == "");
  CHECK(sp("abc", "a") == "bc");
  CHECK(sp("abc", "b") == "abc");
  CHECK(sp("aaa", "*a") == "aa");
  CHECK(lp("aaa", "*a") == "");
  CHECK(sp(".bashrc", ".") == "bashrc");
  CHECK(sp("file.tar.gz", "*.") == "tar.gz");
  CHECK(lp("file.tar.gz", "*.") == "gz");
  CHECK(sp("abcabc", "a*c") == "abc");
  CHECK(lp("abcabc", "a*c") == "");
  CHECK(sp("a1b2", "?[0-9]") == "b2");
  CHECK(sp("a.b.c.d", "*.*.") == "c.d");
  CHECK(lp("a.b.c.d", "*.*.") == "d");
  CHECK(sp("--opt=val", "*=") == "val");
  CHECK(sp("--opt=val", "--") == "opt=val");
}

TEST_CASE("trim agrees with brute force") {
  // Every length is tested with pattern_match to find the expected result.
  const char* pats[] = {"*a*", "a*b*", "*.*", "?*?", "[ab]*[ab]", "*a*a*a*b", "a", "*",
                        "", "??", "*[!a]*", "b*", "*b", "a*a"};
  const char* texts[] = {"", "a", "b", "ab", "ba", "aab", "abab", "a.b.a", "bbbbab", "xaybza"};
  for (const char* p : pats) {
    for (const char* t : texts) {
      std::string_view tv(t);
      auto expect = [&](bool suffix, bool shortest) {
        size_t n = tv.size();
        for (size_t step = 0; step <= n; ++step) {
          size_t len = shortest ? step : n - step;
          std::string_view part = suffix ? tv.substr(n - len) : tv.substr(0, len);
          if (pattern_match(p, part))
            return std::string(suffix ? tv.substr(0, n - len) : tv.substr(len));
        }
        return std::string(tv);
      };
      INFO("pattern ", p, " text ", t);
      CHECK(ss(t, p) == expect(true, true));
      CHECK(ls(t, p) == expect(true, false));
      CHECK(sp(t, p) == expect(false, true));
      CHECK(lp(t, p) == expect(false, false));
    }
  }
}

TEST_CASE("long patterns (more than 64 elements)") {
  std::string pat;
  for (int i = 0; i < 40; ++i) pat += "*a";
  pat += "*b";
  std::string text(100, 'a');
  text += "b";
  text += std::string(20, 'a');
  CHECK(pattern_match(pat, text.substr(0, 101)));
  CHECK_FALSE(pattern_match(pat, text));
  CHECK(ls(text, pat) == text);  // every suffix ends in "a", the pattern in "b"
  CHECK(ls(text.substr(0, 101), pat) == "");
  CHECK(lp(text, pat) == text.substr(101));
}

TEST_CASE("hostile patterns stay polynomial") {
  // These would take ages with naive backtracking; the test only has to finish.
  std::string a(20000, 'a');
  CHECK_FALSE(m("*a*a*a*a*a*a*a*a*a*b", a));
  CHECK(m("*a*a*a*a*a*a*a*a*a*", a));
  CHECK(lp(a, "*a*a*a*a*a*b") == a);
  CHECK(ss(a, "*a*a*a*a*a*b") == a);
  CHECK(ls(a, "*a*a*a*a*a*b") == a);
  CHECK(sp(a, "*a*a*a*a*a*b") == a);
  CHECK(sp(a, "?*b") == a);
  CHECK(ls(a, "a*a*a") == "");
  std::string big;
  for (int i = 0; i < 100; ++i) big += "*a";
  big += "b";
  CHECK(ls(a, big) == a);
  CHECK(lp(a, big) == a);
}

}  // TEST_SUITE

// ---- glob_expand --------------------------------------------------------------

namespace {

// A fake file tree: paths of directories (ending in '/') and files.
struct FakeFs {
  std::set<std::string> files;  // "a/b/c" (no leading ./)
  std::set<std::string> dirs;   // "", "a", "a/b"
  std::vector<std::string> listed;

  void add(const std::string& path) {
    std::string p;
    size_t pos = 0;
    while (true) {
      size_t slash = path.find('/', pos);
      if (slash == std::string::npos) break;
      dirs.insert(path.substr(0, slash));
      pos = slash + 1;
    }
    if (path.back() == '/')
      dirs.insert(path.substr(0, path.size() - 1));
    else
      files.insert(path);
  }

  static std::string norm(std::string d) {
    for (size_t i; (i = d.find("//")) != std::string::npos;) d.erase(i, 1);
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    if (d == ".") d.clear();
    return d;
  }

  bool list(const std::string& dir, std::vector<std::string>& names) {
    listed.push_back(dir);
    std::string d = norm(dir);
    if (!d.empty() && !dirs.count(d)) return false;
    std::string prefix = d.empty() ? "" : d + "/";
    std::set<std::string> out;
    auto consider = [&](const std::string& p) {
      if (p.size() <= prefix.size() || p.compare(0, prefix.size(), prefix) != 0) return;
      std::string rest = p.substr(prefix.size());
      if (rest.find('/') != std::string::npos) return;
      out.insert(rest);
    };
    for (auto& f : files) consider(f);
    for (auto& f : dirs) consider(f);
    // Unsorted on purpose: glob_expand sorts.
    names.assign(out.rbegin(), out.rend());
    return true;
  }

  bool exists(const std::string& path) {
    if (!path.empty() && path.back() == '/') return dirs.count(norm(path)) > 0;
    return files.count(norm(path)) > 0 || dirs.count(norm(path)) > 0;
  }

  std::vector<std::string> glob(std::string_view pat) {
    return glob_expand(
        pat, [this](const std::string& d, std::vector<std::string>& n) { return list(d, n); },
        [this](const std::string& p) { return exists(p); });
  }
};

using V = std::vector<std::string>;

}  // namespace

TEST_SUITE("glob") {

TEST_CASE("single component") {
  FakeFs fs;
  for (auto p : {"b.c", "a.c", "c.h", ".hidden.c", "B.c", "dir/", "_x.c"}) fs.add(p);
  CHECK(fs.glob("*.c") == V{"B.c", "_x.c", "a.c", "b.c"});
  CHECK(fs.glob(".*.c") == V{".hidden.c"});
  CHECK(fs.glob("*") == V{"B.c", "_x.c", "a.c", "b.c", "c.h", "dir"});
  CHECK(fs.glob("?.?") == V{"B.c", "a.c", "b.c", "c.h"});
  CHECK(fs.glob("[ab].c") == V{"a.c", "b.c"});
  CHECK(fs.glob("*.x") == V{});
  CHECK(fs.glob("*/") == V{"dir/"});
  CHECK(fs.glob("nomatch") == V{});  // no glob characters: nothing to expand
  CHECK(fs.listed == V{".", ".", ".", ".", ".", ".", "."});
}

TEST_CASE("multiple components") {
  FakeFs fs;
  for (auto p : {"src/a/x1.c", "src/a/x2.h", "src/b/x3.c", "src/b/y.c", "src/c", "src/.h/x4.c",
                 "src/d/sub/x5.c", "top.c"})
    fs.add(p);
  CHECK(fs.glob("src/*/x*.c") == V{"src/a/x1.c", "src/b/x3.c"});
  CHECK(fs.glob("src/.*/x*.c") == V{"src/.h/x4.c"});
  CHECK(fs.glob("src/*/*/x*.c") == V{"src/d/sub/x5.c"});
  CHECK(fs.glob("*/*") == V{"src/a", "src/b", "src/c", "src/d"});
  CHECK(fs.glob("*/*/") == V{"src/a/", "src/b/", "src/d/"});
  CHECK(fs.glob("src/?/sub") == V{"src/d/sub"});
  CHECK(fs.glob("*/b/y.c") == V{"src/b/y.c"});
  CHECK(fs.glob("*/b/nope") == V{});
  CHECK(fs.glob("s*//a//x1.c") == V{"src//a//x1.c"});  // separators are kept
}

TEST_CASE("literal components are not read") {
  FakeFs fs;
  for (auto p : {"a/b/c/x.c", "a/b/c/y.c"}) fs.add(p);
  CHECK(fs.glob("a/b/c/*.c") == V{"a/b/c/x.c", "a/b/c/y.c"});
  CHECK(fs.listed == V{"a/b/c/"});
  fs.listed.clear();
  CHECK(fs.glob("a/*/c/x.c") == V{"a/b/c/x.c"});
  CHECK(fs.listed == V{"a/"});
  fs.listed.clear();
  CHECK(fs.glob("nodir/*.c") == V{});
}

TEST_CASE("absolute patterns and escapes") {
  FakeFs fs;
  fs.dirs.insert("/etc");
  fs.files.insert("/etc/passwd");
  fs.files.insert("/etc/group");
  fs.files.insert("/etc/p*d");
  // list("/") in the fake: handle root
  auto glob = [&](std::string_view pat) {
    return glob_expand(
        pat,
        [&](const std::string& d, std::vector<std::string>& n) {
          if (d == "/") {
            n = {"etc"};
            return true;
          }
          return fs.list(d.substr(0, d.size() - 1), n);
        },
        [&](const std::string& p) { return fs.exists(p); });
  };
  CHECK(glob("/etc/p*") == V{"/etc/p*d", "/etc/passwd"});
  CHECK(glob("/e*/group") == V{"/etc/group"});
  CHECK(glob("/etc/p\\*d") == V{});            // no glob characters
  CHECK(glob("/e*/p\\*d") == V{"/etc/p*d"});    // escaped star is literal
  CHECK(glob("/etc/[gq]roup") == V{"/etc/group"});
}

TEST_CASE("real directory through list_dir_direct") {
  char tmpl[] = "/tmp/lash-glob-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string root = tmpl;
  for (auto f : {"b.txt", "a.txt", ".dot.txt", "c.md"}) std::ofstream(root + "/" + f) << "x";
  REQUIRE(mkdir((root + "/sub").c_str(), 0755) == 0);
  std::ofstream(root + "/sub/z.txt") << "x";
  REQUIRE(symlink("sub", (root + "/link").c_str()) == 0);
  REQUIRE(symlink("nowhere", (root + "/dangling").c_str()) == 0);

  std::vector<std::string> names;
  REQUIRE(list_dir_direct(root, names));
  std::sort(names.begin(), names.end());
  CHECK(names == V{".dot.txt", "a.txt", "b.txt", "c.md", "dangling", "link", "sub"});
  names.clear();
  CHECK_FALSE(list_dir_direct(root + "/a.txt", names));
  CHECK_FALSE(list_dir_direct(root + "/missing", names));

  CHECK(glob_expand(root + "/*.txt", list_dir_direct) == V{root + "/a.txt", root + "/b.txt"});
  CHECK(glob_expand(root + "/*/", list_dir_direct) == V{root + "/link/", root + "/sub/"});
  CHECK(glob_expand(root + "/*/z.txt", list_dir_direct) ==
        V{root + "/link/z.txt", root + "/sub/z.txt"});
  CHECK(glob_expand(root + "/d*", list_dir_direct) == V{root + "/dangling"});
  CHECK(glob_expand(root + "/*/dangling", list_dir_direct) == V{});

  std::string cmd = "rm -rf '" + root + "'";
  CHECK(std::system(cmd.c_str()) == 0);
}

}  // TEST_SUITE

TEST_CASE("extglob groups (checked against bash -O extglob)") {
  struct On {
    On() { lash::exec::pattern_extglob = true; }
    ~On() { lash::exec::pattern_extglob = false; }
  } on;
  using lash::exec::pattern_match;
  using lash::exec::pattern_trim;
  using lash::exec::TrimKind;
  CHECK(pattern_match("*(a|b)", ""));
  CHECK(pattern_match("*(a|b)", "abba"));
  CHECK_FALSE(pattern_match("+(a|b)", ""));
  CHECK(pattern_match("?(x)y", "y"));
  CHECK_FALSE(pattern_match("?(x)y", "xxy"));
  CHECK(pattern_match("@(f+(o)|g)", "fooo"));
  CHECK(pattern_match("!(*.c)", "a.h"));
  CHECK_FALSE(pattern_match("!(*.c)", "a.c"));
  CHECK(pattern_match("!(*.c)", ""));
  CHECK(pattern_match("a!(b)d", "axd"));
  CHECK_FALSE(pattern_match("a!(b)d", "abd"));
  CHECK(pattern_match("@([[:digit:]]|[a-c])x", "bx"));
  CHECK_FALSE(pattern_match("@(a\\|b)", "a"));  // an escaped '|' is literal
  CHECK(pattern_match("@(a\\|b)", "a|b"));
  CHECK(pattern_trim("aaa.tar.gz", ".@(gz|bz2)", TrimKind::small_suffix) == "aaa.tar");
  CHECK(pattern_trim("aaa.tar.gz", "+(a)", TrimKind::small_prefix) == "aa.tar.gz");
  CHECK(pattern_trim("aaa.tar.gz", "+(a)", TrimKind::large_prefix) == ".tar.gz");
  // Hostile nesting ends (the step budget), it does not hang.
  CHECK_FALSE(pattern_match("*(*(*(a|aa)|aaa))b", std::string(200, 'a')));
}

TEST_CASE("extglob off: the groups are ordinary characters") {
  CHECK(lash::exec::pattern_match("@(a)", "@(a)"));
  CHECK_FALSE(lash::exec::pattern_match("@(a)", "a"));
}
