// Shell pattern matching. A pattern is first compiled (on the stack, no heap for
// patterns of up to 64 elements) into a list of elements: literal byte, '?', '*'
// and bracket sets (256-bit tables). Whole-string matching then needs no
// backtracking: the part before the first star is anchored at the start, the part
// after the last star at the end, and each star-separated segment in between is
// placed leftmost, which is optimal for glob patterns; the cost is O(n·m) at worst.
// pattern_trim simulates the pattern as an NFA (bit-parallel, one uint64 of states)
// over the text, forwards for prefixes and over the reversed pattern backwards for
// suffixes, so every prefix or suffix length is decided in one O(n·m) pass.
#include "exec/pattern.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>

namespace lash::exec {

bool pattern_caret_negates = true;
bool pattern_extglob = false;

namespace {

// ---- small containers -------------------------------------------------------

template <class T, size_t N>
class SmallVec {
 public:
  void push_back(const T& v) {
    if (n_ < N) {
      inline_[n_++] = v;
      return;
    }
    if (heap_.empty()) heap_.assign(inline_, inline_ + n_);
    heap_.push_back(v);
    ++n_;
  }
  T* data() { return n_ <= N ? inline_ : heap_.data(); }
  const T* data() const { return n_ <= N ? inline_ : heap_.data(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[n_ - 1]; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }

 private:
  T inline_[N];
  std::vector<T> heap_;
  size_t n_ = 0;
};

struct CharSet {
  uint64_t w[4];  // value-initialise (CharSet set{}) to clear
  void add(unsigned char c) { w[c >> 6] |= uint64_t{1} << (c & 63); }
  void add_range(unsigned char lo, unsigned char hi) {
    for (unsigned c = lo; c <= hi; ++c) add(static_cast<unsigned char>(c));
  }
  bool test(unsigned char c) const { return (w[c >> 6] >> (c & 63)) & 1; }
  void invert() {
    for (auto& x : w) x = ~x;
  }
};

enum Kind : uint8_t { kLit, kAny, kStar, kSet };

struct Elem {
  Kind kind;
  unsigned char ch;  // kLit
  uint16_t set;      // kSet: index into sets
};

struct Compiled {
  SmallVec<Elem, 64> e;
  SmallVec<CharSet, 4> sets;
  bool literal = true;  // no ?, * or bracket
};

// ---- bracket expressions ------------------------------------------------------

bool add_class(std::string_view name, CharSet& set) {
  struct Cls {
    const char* name;
    bool (*test)(unsigned c);
  };
  static constexpr Cls classes[] = {
      {"alpha", [](unsigned c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }},
      {"digit", [](unsigned c) { return c >= '0' && c <= '9'; }},
      {"alnum", [](unsigned c) { return ((c | 32) >= 'a' && (c | 32) <= 'z') || (c >= '0' && c <= '9'); }},
      {"upper", [](unsigned c) { return c >= 'A' && c <= 'Z'; }},
      {"lower", [](unsigned c) { return c >= 'a' && c <= 'z'; }},
      {"space", [](unsigned c) { return c == ' ' || (c >= '\t' && c <= '\r'); }},
      {"blank", [](unsigned c) { return c == ' ' || c == '\t'; }},
      {"punct", [](unsigned c) {
         return c > 32 && c < 127 && !((c | 32) >= 'a' && (c | 32) <= 'z') && !(c >= '0' && c <= '9');
       }},
      {"print", [](unsigned c) { return c >= 32 && c < 127; }},
      {"graph", [](unsigned c) { return c > 32 && c < 127; }},
      {"cntrl", [](unsigned c) { return c < 32 || c == 127; }},
      {"xdigit", [](unsigned c) {
         return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'f');
       }},
  };
  for (const auto& cls : classes) {
    if (name == cls.name) {
      for (unsigned c = 0; c < 128; ++c)
        if (cls.test(c)) set.add(static_cast<unsigned char>(c));
      return true;
    }
  }
  return false;  // unknown class: a valid element that matches nothing
}

// Parses a bracket expression whose '[' is at pat[i]. Returns the index just past
// the closing ']' and fills *set, or returns 0 if this '[' does not start a
// bracket expression (it is then an ordinary character). In pathname mode a '/'
// inside makes the '[' ordinary (POSIX 2.13.3).
size_t parse_bracket(std::string_view pat, size_t i, bool pathname, CharSet* set) {
  const size_t m = pat.size();
  size_t j = i + 1;
  bool negate = false;
  if (j < m && (pat[j] == '!' || (pat[j] == '^' && pattern_caret_negates))) {
    negate = true;
    ++j;
  }
  bool first = true;
  // Reads one bracket "character" at j: an escaped byte, a collating symbol
  // [.c.] or equivalence class [=c=] of one byte, or a plain byte.
  auto read_char = [&](size_t& k, unsigned char* out) -> bool {
    if (k >= m) return false;
    if (pat[k] == '\\' && k + 1 < m) {
      *out = static_cast<unsigned char>(pat[k + 1]);
      k += 2;
      return true;
    }
    if (pat[k] == '[' && k + 4 < m && (pat[k + 1] == '.' || pat[k + 1] == '=') &&
        pat[k + 3] == pat[k + 1] && pat[k + 4] == ']') {
      *out = static_cast<unsigned char>(pat[k + 2]);
      k += 5;
      return true;
    }
    *out = static_cast<unsigned char>(pat[k]);
    ++k;
    return true;
  };
  for (;;) {
    if (j >= m) return 0;
    char c = pat[j];
    if (c == ']' && !first) {
      if (negate) set->invert();
      return j + 1;
    }
    first = false;
    if (c == '[' && j + 1 < m && pat[j + 1] == ':') {
      size_t close = pat.find(":]", j + 2);
      if (close != std::string_view::npos) {
        std::string_view name = pat.substr(j + 2, close - (j + 2));
        if (name.find(']') == std::string_view::npos) {
          add_class(name, *set);
          j = close + 2;
          continue;
        }
      }
    }
    unsigned char lo = 0;
    read_char(j, &lo);
    if (pathname && lo == '/') return 0;
    if (j + 1 < m && pat[j] == '-' && pat[j + 1] != ']') {
      size_t k = j + 1;
      unsigned char hi = 0;
      read_char(k, &hi);
      if (pathname && hi == '/') return 0;
      if (lo <= hi) set->add_range(lo, hi);
      j = k;
    } else {
      set->add(lo);
    }
  }
}

// ---- extglob ------------------------------------------------------------------------
//
// Groups ?( *( +( @( !( make the language non-regular in practice (negation), so
// these patterns take a recursive matcher over (pattern range, text range) with
// memoisation: every state is decided once, which keeps the cost polynomial. A
// step budget bounds hostile patterns: past it the match fails (fail closed: no
// match) instead of hanging the shell.

inline bool ext_op(char c) { return c == '?' || c == '*' || c == '+' || c == '@' || c == '!'; }

class ExtMatcher {
 public:
  ExtMatcher(std::string_view p, std::string_view t) : p_(p), t_(t) {}
  // pattern p[pi..pe) against text t[ti..te), whole.
  bool match(size_t pi, size_t pe, size_t ti, size_t te) {
    if (++steps_ > kBudget) return false;
    while (pi < pe) {
      const char c = p_[pi];
      size_t close = 0;
      if (ext_op(c) && pi + 1 < pe && p_[pi + 1] == '(' && (close = group_end(pi + 1, pe)) != 0)
        return memo(0, pi, pe, ti, te, close);
      if (c == '*') {
        while (pi < pe && p_[pi] == '*' && !(pi + 1 < pe && p_[pi + 1] == '(')) ++pi;
        if (pi == pe) return true;
        for (size_t k = ti; k <= te; ++k)
          if (match(pi, pe, k, te)) return true;
        return false;
      }
      if (ti == te) return false;
      const auto tc = static_cast<unsigned char>(t_[ti]);
      if (c == '?') {
        ++pi, ++ti;
        continue;
      }
      if (c == '[') {
        CharSet set{};
        const size_t end = parse_bracket(p_.substr(0, pe), pi, false, &set);
        if (end != 0) {
          if (!set.test(tc)) return false;
          pi = end, ++ti;
          continue;
        }
      }
      size_t at = pi;
      if (c == '\\' && pi + 1 < pe) ++at;
      if (static_cast<unsigned char>(p_[at]) != tc) return false;
      pi = at + 1, ++ti;
    }
    return ti == te;
  }

 private:
  static constexpr size_t kBudget = 2'000'000;  // also bounds the memo (~150 MB at most)

  // The index of the ')' closing the '(' at `open`, or 0; splits the alternatives
  // at top-level '|' into alts_ (cached per group).
  size_t group_end(size_t open, size_t pe) {
    int depth = 0;
    for (size_t i = open + 1; i < pe; ++i) {
      const char c = p_[i];
      if (c == '\\') {
        ++i;
      } else if (c == '[') {
        CharSet set{};
        const size_t end = parse_bracket(p_.substr(0, pe), i, false, &set);
        if (end != 0) i = end - 1;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        if (depth == 0) return i;
        --depth;
      }
    }
    return 0;
  }

  std::vector<std::pair<size_t, size_t>> alternatives(size_t open, size_t close) {
    std::vector<std::pair<size_t, size_t>> alts;
    int depth = 0;
    size_t start = open + 1;
    for (size_t i = open + 1; i < close; ++i) {
      const char c = p_[i];
      if (c == '\\') {
        ++i;
      } else if (c == '[') {
        CharSet set{};
        const size_t end = parse_bracket(p_.substr(0, close), i, false, &set);
        if (end != 0) i = end - 1;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        --depth;
      } else if (c == '|' && depth == 0) {
        alts.emplace_back(start, i);
        start = i + 1;
      }
    }
    alts.emplace_back(start, close);
    return alts;
  }

  bool any_alt(const std::vector<std::pair<size_t, size_t>>& alts, size_t ti, size_t k) {
    for (const auto& [s, e] : alts) {
      const size_t len = fixed_len(s, e);
      if (len != kVariable && len != k - ti) continue;  // cannot match this length
      if (match(s, e, ti, k)) return true;
    }
    return false;
  }

  // The text length an alternative without '*' or groups always matches, else
  // kVariable: lets *(a) and the like skip impossible lengths (linear, not quadratic).
  static constexpr size_t kVariable = SIZE_MAX;
  size_t fixed_len(size_t s, size_t e) const {
    size_t n = 0;
    for (size_t i = s; i < e; ++n) {
      const char c = p_[i];
      if (c == '*' || (ext_op(c) && i + 1 < e && p_[i + 1] == '(')) return kVariable;
      if (c == '[') {
        CharSet set{};
        const size_t end = parse_bracket(p_.substr(0, e), i, false, &set);
        i = end != 0 ? end : i + 1;
      } else if (c == '\\' && i + 1 < e) {
        i += 2;
      } else {
        ++i;
      }
    }
    return n;
  }

  // kind 0: the group at pi followed by the rest of the pattern; kind 1: zero or
  // more further repetitions of the group at pi, then the rest (for * and +).
  bool memo(int kind, size_t pi, size_t pe, size_t ti, size_t te, size_t close) {
    const auto key = std::make_tuple(kind, pi, pe, ti, te);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const bool r = group(kind, pi, pe, ti, te, close);
    memo_[key] = r;
    return r;
  }

  bool group(int kind, size_t pi, size_t pe, size_t ti, size_t te, size_t close) {
    const auto alts = alternatives(pi + 1, close);
    const size_t rest = close + 1;
    // A group that ends the pattern must take the whole remaining text.
    const size_t k0 = rest == pe ? te : ti;
    if (kind == 1) {
      if (match(rest, pe, ti, te)) return true;
      for (size_t k = ti + 1; k <= te; ++k)
        if (any_alt(alts, ti, k) && memo(1, pi, pe, k, te, close)) return true;
      return false;
    }
    switch (p_[pi]) {
      case '*': return memo(1, pi, pe, ti, te, close);
      case '?':
        if (match(rest, pe, ti, te)) return true;
        [[fallthrough]];
      case '@':
        for (size_t k = k0; k <= te; ++k)
          if (any_alt(alts, ti, k) && match(rest, pe, k, te)) return true;
        return false;
      case '+':
        for (size_t k = ti; k <= te; ++k)
          if (any_alt(alts, ti, k) && memo(1, pi, pe, k, te, close)) return true;
        return false;
      default:  // '!': any text that none of the alternatives matches
        for (size_t k = k0; k <= te; ++k)
          if (!any_alt(alts, ti, k) && match(rest, pe, k, te)) return true;
        return false;
    }
  }

  std::string_view p_, t_;
  size_t steps_ = 0;
  std::map<std::tuple<int, size_t, size_t, size_t, size_t>, bool> memo_;
};

// Pathname expansion with extglob: a leading '.' of a name is matched only when
// the pattern starts with a literal '.' or with a group (not '!') one of whose
// alternatives does (as bash: "@(.a|b)" matches ".a").
bool ext_explicit_dot(std::string_view pat) {
  if (pat.empty()) return false;
  if (pat[0] == '.') return true;
  // "!(.a)" names what it does not match: it never matches a leading dot.
  if (!(ext_op(pat[0]) && pat[0] != '!' && pat.size() > 1 && pat[1] == '(')) return false;
  int depth = 0;
  bool at_start = true;
  for (size_t i = 2; i < pat.size(); ++i) {
    const char c = pat[i];
    if (at_start && depth == 0 && ext_explicit_dot(pat.substr(i))) return true;
    at_start = false;
    if (c == '\\') ++i;
    else if (c == '(') ++depth;
    else if (c == ')' && depth-- == 0) return false;
    else if (c == '|' && depth == 0) at_start = true;
  }
  return false;
}

bool ext_match(std::string_view pattern, std::string_view text) {
  ExtMatcher m(pattern, text);
  return m.match(0, pattern.size(), 0, text.size());
}

// ---- compilation ------------------------------------------------------------------

void compile(std::string_view pat, bool pathname, Compiled& out) {
  const size_t m = pat.size();
  size_t i = 0;
  while (i < m) {
    char c = pat[i];
    if (c == '*') {
      out.literal = false;
      if (out.e.empty() || out.e.back().kind != kStar) out.e.push_back({kStar, 0, 0});
      ++i;
    } else if (c == '?') {
      out.literal = false;
      out.e.push_back({kAny, 0, 0});
      ++i;
    } else if (c == '[') {
      CharSet set{};
      size_t end = parse_bracket(pat, i, pathname, &set);
      if (end == 0) {
        out.e.push_back({kLit, '[', 0});
        ++i;
      } else {
        out.literal = false;
        out.e.push_back({kSet, 0, static_cast<uint16_t>(out.sets.size())});
        out.sets.push_back(set);
        i = end;
      }
    } else if (c == '\\' && i + 1 < m) {
      out.e.push_back({kLit, static_cast<unsigned char>(pat[i + 1]), 0});
      i += 2;
    } else {
      out.e.push_back({kLit, static_cast<unsigned char>(c), 0});
      ++i;
    }
  }
}

// ---- whole-string matching -----------------------------------------------------

inline bool elem_matches(const Elem& e, const CharSet* sets, unsigned char c) {
  switch (e.kind) {
    case kLit: return e.ch == c;
    case kAny: return true;
    case kSet: return sets[e.set].test(c);
    default: return false;
  }
}

// Matches star-free elements e[0..k) against exactly t[0..k).
inline bool match_fixed(const Elem* e, size_t k, const CharSet* sets, const unsigned char* t) {
  for (size_t i = 0; i < k; ++i)
    if (!elem_matches(e[i], sets, t[i])) return false;
  return true;
}

struct Shape {
  size_t first_star;  // k if none
  size_t last_star;
};

inline Shape shape_of(const Elem* e, size_t k) {
  Shape sh{k, k};
  for (size_t i = 0; i < k; ++i) {
    if (e[i].kind == kStar) {
      if (sh.first_star == k) sh.first_star = i;
      sh.last_star = i;
    }
  }
  return sh;
}

bool match_shaped(const Elem* e, size_t k, Shape sh, const CharSet* sets, const unsigned char* t,
                  size_t n) {
  const size_t first_star = sh.first_star, last_star = sh.last_star;
  if (first_star == k) return k == n && match_fixed(e, k, sets, t);
  const size_t head = first_star;
  const size_t tail = k - last_star - 1;
  // Each non-star element consumes exactly one byte.
  if (head + tail > n) return false;
  if (!match_fixed(e, head, sets, t)) return false;
  if (!match_fixed(e + last_star + 1, tail, sets, t + n - tail)) return false;
  size_t cur = head;
  const size_t limit = n - tail;
  size_t i = first_star + 1;
  while (i < last_star) {
    size_t j = i;
    while (e[j].kind != kStar) ++j;
    const size_t len = j - i;
    // Leftmost placement of segment e[i..j) in t[cur..limit).
    bool found = false;
    if (e[i].kind == kLit) {
      const unsigned char first = e[i].ch;
      while (cur + len <= limit) {
        const void* hit = memchr(t + cur, first, limit - len - cur + 1);
        if (hit == nullptr) break;
        cur = static_cast<size_t>(static_cast<const unsigned char*>(hit) - t);
        if (match_fixed(e + i + 1, len - 1, sets, t + cur + 1)) {
          found = true;
          break;
        }
        ++cur;
      }
    } else {
      for (; cur + len <= limit; ++cur) {
        if (match_fixed(e + i, len, sets, t + cur)) {
          found = true;
          break;
        }
      }
    }
    if (!found) return false;
    cur += len;
    i = j + 1;
  }
  return true;
}

inline bool match_elems(const Elem* e, size_t k, const CharSet* sets, const unsigned char* t,
                        size_t n) {
  return match_shaped(e, k, shape_of(e, k), sets, t, n);
}

// Pathname rules: '/' only matched literally, and a leading '.' of each component
// only by a literal '.'.
bool match_pathname(const Compiled& c, std::string_view text) {
  const Elem* e = c.e.data();
  const size_t k = c.e.size();
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t ei = 0, ti = 0;
  for (;;) {
    size_t ee = ei;
    while (ee < k && !(e[ee].kind == kLit && e[ee].ch == '/')) ++ee;
    size_t te = ti;
    while (te < n && t[te] != '/') ++te;
    if (te > ti && t[ti] == '.' && !(ee > ei && e[ei].kind == kLit && e[ei].ch == '.'))
      return false;
    if (!match_elems(e + ei, ee - ei, c.sets.data(), t + ti, te - ti)) return false;
    const bool pat_done = ee == k;
    const bool text_done = te == n;
    if (pat_done || text_done) return pat_done && text_done;
    ei = ee + 1;
    ti = te + 1;
  }
}

// ---- prefix / suffix trimming ----------------------------------------------------

// All lengths L such that elements e[0..k) match t[0..L) (forwards) or the last L
// bytes of t (backwards, e given reversed): returns the shortest or longest L, or
// -1 if none. k must be < 64.
long nfa_trim(const Elem* e, size_t k, const CharSet* sets, const unsigned char* t, size_t n,
              bool backwards, bool shortest) {
  uint64_t star_mask = 0;
  for (size_t i = 0; i < k; ++i)
    if (e[i].kind == kStar) star_mask |= uint64_t{1} << i;
  const uint64_t accept = uint64_t{1} << k;
  auto closure = [&](uint64_t s) { return s | ((s & star_mask) << 1); };
  uint64_t s = closure(1);
  long best = -1;
  if (s & accept) {
    best = 0;
    if (shortest) return 0;
  }
  for (size_t len = 1; len <= n; ++len) {
    const unsigned char c = backwards ? t[n - len] : t[len - 1];
    uint64_t next = s & star_mask;
    uint64_t r = s & ~star_mask & ~accept;
    while (r) {
      const int j = __builtin_ctzll(r);
      r &= r - 1;
      if (elem_matches(e[j], sets, c)) next |= uint64_t{1} << (j + 1);
    }
    s = closure(next);
    if (s == 0) break;
    if (s & accept) {
      best = static_cast<long>(len);
      if (shortest) break;
    }
  }
  return best;
}

// The same for patterns of 64 elements or more: state sets as arrays of words.
long nfa_trim_wide(const Elem* e, size_t k, const CharSet* sets, const unsigned char* t,
                   size_t n, bool backwards, bool shortest) {
  const size_t words = (k + 1 + 63) / 64;
  std::vector<uint64_t> star(words, 0), s(words, 0), next(words, 0);
  for (size_t i = 0; i < k; ++i)
    if (e[i].kind == kStar) star[i / 64] |= uint64_t{1} << (i % 64);
  auto closure = [&](std::vector<uint64_t>& v) {
    // v |= (v & star) << 1, carrying across words; stars are never adjacent.
    uint64_t carry = 0;
    for (size_t w = 0; w < words; ++w) {
      const uint64_t x = v[w] & star[w];
      const uint64_t out = x >> 63;
      v[w] |= (x << 1) | carry;
      carry = out;
    }
  };
  auto accepting = [&](const std::vector<uint64_t>& v) { return (v[k / 64] >> (k % 64)) & 1; };
  s[0] = 1;
  closure(s);
  long best = -1;
  if (accepting(s)) {
    best = 0;
    if (shortest) return 0;
  }
  for (size_t len = 1; len <= n; ++len) {
    const unsigned char c = backwards ? t[n - len] : t[len - 1];
    bool any = false;
    for (size_t w = 0; w < words; ++w) next[w] = s[w] & star[w];
    for (size_t w = 0; w < words; ++w) {
      uint64_t r = s[w] & ~star[w];
      while (r) {
        const size_t j = w * 64 + static_cast<size_t>(__builtin_ctzll(r));
        r &= r - 1;
        if (j < k && elem_matches(e[j], sets, c)) next[(j + 1) / 64] |= uint64_t{1} << ((j + 1) % 64);
      }
    }
    closure(next);
    s.swap(next);
    for (size_t w = 0; w < words; ++w) any |= s[w] != 0;
    if (!any) break;
    if (accepting(s)) {
      best = static_cast<long>(len);
      if (shortest) break;
    }
  }
  return best;
}

// Tries each length with the whole-string matcher, stopping at the first match in
// the order wanted. With at most one star each try is O(m) (anchored head and
// tail), so this is O(n·m); when the anchored end of the pattern is a literal
// byte, only the positions holding that byte are tried (memchr/memrchr).
long direct_trim(const Elem* e, size_t k, const CharSet* sets, const unsigned char* t, size_t n,
                 bool suffix, bool shortest) {
  const Shape sh = shape_of(e, k);
  auto try_len = [&](size_t len) {
    return match_shaped(e, k, sh, sets, suffix ? t + n - len : t, len);
  };
  // A suffix starts with e[0]; a prefix ends with e[k-1].
  const Elem* anchor = k == 0 ? nullptr : suffix ? &e[0] : &e[k - 1];
  if (anchor == nullptr || anchor->kind != kLit) {
    for (size_t step = 0; step <= n; ++step) {
      const size_t len = shortest ? step : n - step;
      if (try_len(len)) return static_cast<long>(len);
    }
    return -1;
  }
  const int ch = anchor->ch;
  // Position of the anchor byte -> candidate length.
  auto len_at = [&](size_t pos) { return suffix ? n - pos : pos + 1; };
  if (suffix ? !shortest : shortest) {
    size_t pos = 0;
    while (pos < n) {
      const void* hit = memchr(t + pos, ch, n - pos);
      if (hit == nullptr) break;
      pos = static_cast<size_t>(static_cast<const unsigned char*>(hit) - t);
      if (try_len(len_at(pos))) return static_cast<long>(len_at(pos));
      ++pos;
    }
  } else {
    size_t end = n;
    while (end > 0) {
      const void* hit = memrchr(t, ch, end);
      if (hit == nullptr) break;
      const size_t pos = static_cast<size_t>(static_cast<const unsigned char*>(hit) - t);
      if (try_len(len_at(pos))) return static_cast<long>(len_at(pos));
      end = pos;
    }
  }
  return -1;
}

}  // namespace

bool path_exists_direct(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// Shapes common enough in `case` and ${x%...} to skip compilation: LIT, *LIT and
// LIT*, where LIT has no special character.
enum class Quick { plain, star_lit, lit_star, other };

Quick quick_shape(std::string_view p, std::string_view* lit) {
  size_t star = std::string_view::npos;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '?' || c == '[' || c == '\\') return Quick::other;
    if (c == '*') {
      if (star != std::string_view::npos) return Quick::other;
      star = i;
    }
  }
  if (star == std::string_view::npos) {
    *lit = p;
    return Quick::plain;
  }
  if (star == 0) {
    *lit = p.substr(1);
    return Quick::star_lit;
  }
  if (star == p.size() - 1) {
    *lit = p.substr(0, star);
    return Quick::lit_star;
  }
  return Quick::other;
}

bool has_extglob(std::string_view pattern) {
  for (size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] == '\\') ++i;
    else if (ext_op(pattern[i]) && pattern[i + 1] == '(') return true;
  }
  return false;
}

bool pattern_match(std::string_view pattern, std::string_view text, bool pathname) {
  if (pattern_extglob && has_extglob(pattern)) {
    if (pathname && !text.empty() && text[0] == '.' && !ext_explicit_dot(pattern)) return false;
    return ext_match(pattern, text);
  }
  std::string_view lit;
  switch (quick_shape(pattern, &lit)) {
    case Quick::plain: return pattern == text;
    case Quick::star_lit:
      if (!pathname) return text.size() >= lit.size() && text.substr(text.size() - lit.size()) == lit;
      break;
    case Quick::lit_star:
      if (!pathname) return text.substr(0, lit.size()) == lit;
      break;
    case Quick::other: break;
  }
  Compiled c;
  compile(pattern, pathname, c);
  if (pathname) return match_pathname(c, text);
  return match_elems(c.e.data(), c.e.size(), c.sets.data(),
                     reinterpret_cast<const unsigned char*>(text.data()), text.size());
}

bool has_glob_chars(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (c == '*' || c == '?') {
      return true;
    } else if (pattern_extglob && (c == '+' || c == '@' || c == '!') && i + 1 < pattern.size() &&
               pattern[i + 1] == '(') {
      return true;
    } else if (c == '[') {
      CharSet set{};
      if (parse_bracket(pattern, i, false, &set) != 0) return true;
    }
  }
  return false;
}

std::string pattern_unescape(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size()) ++i;
    out.push_back(pattern[i]);
  }
  return out;
}

// First / last position of `lit` in `text` (-1 if none), scanning with memchr /
// memrchr for its first byte.
long find_first(std::string_view text, std::string_view lit) {
  if (lit.empty()) return 0;
  const char* base = text.data();
  size_t pos = 0;
  while (pos + lit.size() <= text.size()) {
    const void* hit = memchr(base + pos, lit[0], text.size() - lit.size() - pos + 1);
    if (hit == nullptr) return -1;
    pos = static_cast<size_t>(static_cast<const char*>(hit) - base);
    if (memcmp(base + pos + 1, lit.data() + 1, lit.size() - 1) == 0) return static_cast<long>(pos);
    ++pos;
  }
  return -1;
}

long find_last(std::string_view text, std::string_view lit) {
  if (lit.empty()) return static_cast<long>(text.size());
  if (lit.size() > text.size()) return -1;
  const char* base = text.data();
  size_t end = text.size() - lit.size() + 1;  // candidates are [0, end)
  while (end > 0) {
    const void* hit = memrchr(base, lit[0], end);
    if (hit == nullptr) return -1;
    const auto pos = static_cast<size_t>(static_cast<const char*>(hit) - base);
    if (memcmp(base + pos + 1, lit.data() + 1, lit.size() - 1) == 0) return static_cast<long>(pos);
    end = pos;
  }
  return -1;
}

// pattern_trim for the quick shapes: the number of bytes to remove, or -1.
long quick_trim(std::string_view text, std::string_view lit, Quick shape, TrimKind kind) {
  const size_t n = text.size(), l = lit.size();
  // Compared as string_views: an empty one may have no data (memcmp of a null
  // pointer is undefined even for no bytes).
  const bool starts = n >= l && text.substr(0, l) == lit;
  const bool ends = n >= l && text.substr(n - l) == lit;
  switch (shape) {
    case Quick::plain:
      if (kind == TrimKind::small_suffix || kind == TrimKind::large_suffix) return ends ? long(l) : -1;
      return starts ? long(l) : -1;
    case Quick::star_lit:  // *LIT
      switch (kind) {
        case TrimKind::small_suffix: return ends ? long(l) : -1;
        case TrimKind::large_suffix: return ends ? long(n) : -1;
        case TrimKind::small_prefix: {
          const long p = find_first(text, lit);
          return p < 0 ? -1 : p + long(l);
        }
        case TrimKind::large_prefix: {
          const long p = find_last(text, lit);
          return p < 0 ? -1 : p + long(l);
        }
      }
      break;
    case Quick::lit_star:  // LIT*
      switch (kind) {
        case TrimKind::small_suffix: {
          const long p = find_last(text, lit);
          return p < 0 ? -1 : long(n) - p;
        }
        case TrimKind::large_suffix: {
          const long p = find_first(text, lit);
          return p < 0 ? -1 : long(n) - p;
        }
        case TrimKind::small_prefix: return starts ? long(l) : -1;
        case TrimKind::large_prefix: return starts ? long(n) : -1;
      }
      break;
    case Quick::other: break;
  }
  return -1;
}

std::string pattern_trim(std::string_view text, std::string_view pattern, TrimKind kind) {
  const bool suffix = kind == TrimKind::small_suffix || kind == TrimKind::large_suffix;
  const bool shortest = kind == TrimKind::small_suffix || kind == TrimKind::small_prefix;
  if (pattern_extglob && has_extglob(pattern)) {
    // One matcher for every length: its memo is shared across them.
    ExtMatcher m(pattern, text);
    const size_t n = text.size();
    for (size_t step = 0; step <= n; ++step) {
      const size_t len = shortest ? step : n - step;
      if (suffix ? m.match(0, pattern.size(), n - len, n) : m.match(0, pattern.size(), 0, len))
        return suffix ? std::string(text.substr(0, n - len)) : std::string(text.substr(len));
    }
    return std::string(text);
  }
  std::string_view lit;
  const Quick shape = quick_shape(pattern, &lit);
  if (shape != Quick::other) {
    const long cut = quick_trim(text, lit, shape, kind);
    if (cut <= 0) return std::string(text);
    const auto c = static_cast<size_t>(cut);
    return suffix ? std::string(text.substr(0, text.size() - c)) : std::string(text.substr(c));
  }
  Compiled c;
  compile(pattern, false, c);
  const size_t k = c.e.size();
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t stars = 0;
  for (size_t i = 0; i < k; ++i) stars += c.e[i].kind == kStar;
  long len = -1;
  if (c.literal) {
    // Only one length can match.
    if (k <= n && match_fixed(c.e.data(), k, c.sets.data(), suffix ? t + n - k : t))
      len = static_cast<long>(k);
  } else if (stars <= 1) {
    len = direct_trim(c.e.data(), k, c.sets.data(), t, n, suffix, shortest);
  } else {
    const Elem* e = c.e.data();
    std::vector<Elem> rev_heap;
    Elem rev[64];
    if (suffix) {
      Elem* r = rev;
      if (k > 64) {
        rev_heap.resize(k);
        r = rev_heap.data();
      }
      for (size_t i = 0; i < k; ++i) r[i] = c.e[k - 1 - i];
      e = r;
    }
    len = k < 64 ? nfa_trim(e, k, c.sets.data(), t, n, suffix, shortest)
                 : nfa_trim_wide(e, k, c.sets.data(), t, n, suffix, shortest);
  }
  if (len <= 0) return std::string(text);
  const auto l = static_cast<size_t>(len);
  return suffix ? std::string(text.substr(0, n - l)) : std::string(text.substr(l));
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

// ---- pathname expansion ---------------------------------------------------------

namespace {

struct GlobState {
  const ListDir& list_dir;
  const PathExists& exists;
  // Components of the pattern, each followed by its separator ("", "/", "//"...).
  std::vector<std::pair<std::string_view, std::string_view>> comps;
  std::vector<std::string> results;
  GlobOptions opts;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

void glob_rec(GlobState& st, std::string& prefix, size_t idx);

// globstar's "**": this directory and every directory below it (not following
// hidden ones unless dotglob), each continuing with the next component; as the
// last component, every name below.
void glob_star_rec(GlobState& st, std::string& prefix, size_t idx, int depth) {
  const bool last = idx + 1 == st.comps.size();
  const size_t base = prefix.size();
  if (!last) glob_rec(st, prefix, idx + 1);
  if (depth > 64) return;  // a bound on pathological trees
  std::vector<std::string> names;
  if (!st.list_dir(prefix.empty() ? std::string(".") : prefix, names)) return;
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (name.empty() || (name[0] == '.' && !st.opts.dotglob)) continue;
    prefix.resize(base);
    prefix += name;
    bool dir = st.exists(prefix + "/");
    if (last) st.results.push_back(prefix);
    if (dir) {
      prefix += '/';
      glob_star_rec(st, prefix, idx, depth + 1);
    }
  }
  prefix.resize(base);
}

void glob_rec(GlobState& st, std::string& prefix, size_t idx) {
  const auto [comp, sep] = st.comps[idx];
  const bool last = idx + 1 == st.comps.size();
  const size_t base = prefix.size();
  if (st.opts.globstar && comp == "**") {
    glob_star_rec(st, prefix, idx, 0);
    return;
  }
  if (!has_glob_chars(comp)) {
    prefix += pattern_unescape(comp);
    if (last) {
      // The whole path so far was literal since the last glob: it must exist (with
      // a trailing slash, as a directory).
      if (sep.empty() ? st.exists(prefix) : st.exists(prefix + "/")) {
        prefix += sep;
        st.results.push_back(prefix);
      }
    } else {
      prefix += sep;
      glob_rec(st, prefix, idx + 1);
    }
    prefix.resize(base);
    return;
  }
  std::vector<std::string> names;
  if (!st.list_dir(prefix.empty() ? std::string(".") : prefix, names)) return;
  const std::string folded_comp = st.opts.nocase ? lower(comp) : std::string();
  const std::string_view pat = st.opts.nocase ? std::string_view(folded_comp) : comp;
  const bool ext = pattern_extglob && has_extglob(pat);
  Compiled c;
  if (!ext) compile(pat, true, c);
  const bool explicit_dot =
      ext ? ext_explicit_dot(pat) : !c.e.empty() && c.e[0].kind == kLit && c.e[0].ch == '.';
  // As dash: a component that starts with a literal '.' also matches . and ..
  if (explicit_dot && !ext) {  // bash leaves . and .. out of extglob results
    names.emplace_back(".");
    names.emplace_back("..");
  }
  for (const std::string& name : names) {
    if (name.empty()) continue;
    if (name[0] == '.' && !explicit_dot && !st.opts.dotglob) continue;
    if (name.find('/') != std::string::npos) continue;
    const std::string folded = st.opts.nocase ? lower(name) : std::string();
    const std::string& subject = st.opts.nocase ? folded : name;
    if (ext ? !ext_match(pat, subject)
            : !match_elems(c.e.data(), c.e.size(), c.sets.data(),
                           reinterpret_cast<const unsigned char*>(subject.data()), subject.size()))
      continue;
    prefix.resize(base);
    prefix += name;
    if (last) {
      if (sep.empty() || st.exists(prefix + "/")) {
        prefix += sep;
        st.results.push_back(prefix);
      }
    } else {
      prefix += sep;
      glob_rec(st, prefix, idx + 1);
    }
  }
  prefix.resize(base);
}

}  // namespace

std::vector<std::string> glob_expand(std::string_view pattern, const ListDir& list_dir,
                                     const PathExists& exists, const GlobOptions& opts) {
  if (pattern.empty() || !has_glob_chars(pattern)) return {};
  GlobState st{list_dir, exists, {}, {}, opts};
  size_t i = 0;
  std::string prefix;
  while (i < pattern.size() && pattern[i] == '/') ++i;
  prefix.assign(pattern.substr(0, i));
  while (i < pattern.size()) {
    // A component ends at an unescaped '/'; a backslash before '/' escapes nothing
    // useful, so '/' always separates.
    size_t j = i;
    size_t comp_end = pattern.size();
    while (j < pattern.size()) {
      if (pattern[j] == '\\' && j + 1 < pattern.size()) {
        if (pattern[j + 1] == '/') {  // an escaped '/' still separates
          comp_end = j++;
          break;
        }
        j += 2;
        continue;
      }
      if (pattern[j] == '/') {
        comp_end = j;
        break;
      }
      ++j;
    }
    if (j > pattern.size()) j = pattern.size();
    size_t s = j;
    while (s < pattern.size() && pattern[s] == '/') ++s;
    st.comps.emplace_back(pattern.substr(i, comp_end - i), pattern.substr(j, s - j));
    i = s;
  }
  if (st.comps.empty()) return {};
  glob_rec(st, prefix, 0);
  std::sort(st.results.begin(), st.results.end());
  return std::move(st.results);
}

std::vector<std::string> glob_expand(std::string_view pattern, const ListDir& list_dir) {
  return glob_expand(pattern, list_dir, path_exists_direct);
}

bool list_dir_direct(const std::string& dir, std::vector<std::string>& names) {
  int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  DIR* d = fdopendir(fd);
  if (d == nullptr) {
    close(fd);
    return false;
  }
  while (struct dirent* ent = readdir(d)) {
    const char* n = ent->d_name;
    if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'))) continue;
    names.emplace_back(n);
  }
  closedir(d);
  return true;
}

}  // namespace lash::exec
