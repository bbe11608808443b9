#include "exec/brace.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace lash::exec {

namespace {

// One character of unquoted text (part == nullptr) or an opaque part.
struct Item {
  char c = 0;
  const ast::WordPart* part = nullptr;
  bool is(char ch) const { return !part && c == ch; }
};
using Items = std::vector<Item>;

// The '}' matching the '{' at OPEN, and the top-level commas between; false when
// there is none.
bool find_close(const Items& it, size_t open, size_t& close, std::vector<size_t>& commas) {
  int depth = 0;
  commas.clear();
  for (size_t i = open + 1; i < it.size(); ++i) {
    if (it[i].is('{')) ++depth;
    else if (it[i].is('}')) {
      if (depth == 0) {
        close = i;
        return true;
      }
      --depth;
    } else if (it[i].is(',') && depth == 0) {
      commas.push_back(i);
    }
  }
  return false;
}

bool parse_int(std::string_view s, int64_t& v) {
  if (s.empty() || s.size() > 18) return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size()) return false;
  int64_t r = 0;
  for (size_t k = i; k < s.size(); ++k) {
    if (s[k] < '0' || s[k] > '9') return false;
    r = r * 10 + (s[k] - '0');
  }
  v = s[0] == '-' ? -r : r;
  return true;
}

// {x..y[..step]}: the sequence's texts, or false when the text is not one.
bool sequence(std::string_view body, std::vector<std::string>& out) {
  size_t d1 = body.find("..");
  if (d1 == std::string_view::npos) return false;
  std::string_view a = body.substr(0, d1), rest = body.substr(d1 + 2), b = rest, st;
  size_t d2 = rest.find("..");
  if (d2 != std::string_view::npos) {
    b = rest.substr(0, d2);
    st = rest.substr(d2 + 2);
  }
  int64_t step = 1;
  if (!st.empty() && !parse_int(st, step)) return false;
  if (step == 0) step = 1;
  if (step < 0) step = -step;
  int64_t x, y;
  if (parse_int(a, x) && parse_int(b, y)) {
    // Zero-padded when either end has a leading zero: to the longer width.
    size_t width = 0;
    auto padded = [](std::string_view s) { size_t i = s[0] == '-' ? 1 : 0; return s.size() > i + 1 && s[i] == '0'; };
    if (padded(a) || padded(b)) width = std::max(a.size(), b.size());
    for (int64_t v = x;; v += x <= y ? step : -step) {
      if ((x <= y && v > y) || (x > y && v < y)) break;
      std::string t = std::to_string(v < 0 ? -v : v);
      size_t w = width > 0 && v < 0 ? width - 1 : width;
      if (t.size() < w) t.insert(0, w - t.size(), '0');
      if (v < 0) t.insert(0, 1, '-');
      out.push_back(std::move(t));
      if (out.size() >= kMaxBraceWords) break;
    }
    return true;
  }
  if (a.size() == 1 && b.size() == 1 && std::isalpha(static_cast<unsigned char>(a[0])) &&
      std::isalpha(static_cast<unsigned char>(b[0]))) {
    int x2 = a[0], y2 = b[0];
    for (int v = x2;; v += x2 <= y2 ? int(step) : -int(step)) {
      if ((x2 <= y2 && v > y2) || (x2 > y2 && v < y2)) break;
      out.emplace_back(1, char(v));
    }
    return true;
  }
  return false;
}

void expand(const Items& it, size_t from, std::vector<Items>& out) {
  if (out.size() >= kMaxBraceWords) return;
  for (size_t open = from; open < it.size(); ++open) {
    if (!it[open].is('{')) continue;
    // "${" never reaches here (it is a parameter part); a '{' right after '$' in
    // text stays literal as in bash.
    if (open > 0 && it[open - 1].is('$')) continue;
    size_t close;
    std::vector<size_t> commas;
    if (!find_close(it, open, close, commas)) return out.push_back(it);
    Items prefix(it.begin(), it.begin() + long(open));
    Items suffix(it.begin() + long(close) + 1, it.end());
    std::vector<Items> alts;
    if (!commas.empty()) {
      size_t start = open + 1;
      commas.push_back(close);
      for (size_t c : commas) {
        alts.emplace_back(it.begin() + long(start), it.begin() + long(c));
        start = c + 1;
      }
    } else {
      std::string body;
      bool text = true;
      for (size_t i = open + 1; i < close; ++i) {
        if (it[i].part) text = false;
        body.push_back(it[i].c);
      }
      std::vector<std::string> seq;
      if (!text || !sequence(body, seq)) continue;  // not a brace expression: literal
      for (auto& s : seq) {
        Items one;
        for (char ch : s) one.push_back(Item{ch, nullptr});
        alts.push_back(std::move(one));
      }
    }
    for (auto& alt : alts) {
      Items w = prefix;
      w.insert(w.end(), alt.begin(), alt.end());
      size_t resume = prefix.size();
      w.insert(w.end(), suffix.begin(), suffix.end());
      expand(w, resume, out);
      if (out.size() >= kMaxBraceWords) return;
    }
    return;
  }
  out.push_back(it);
}

}  // namespace

bool may_brace_expand(const ast::Word& w) {
  for (const auto& p : w.parts)
    if (auto* l = std::get_if<ast::Literal>(&p.v); l && !l->quoted && l->text.find('{') != std::string::npos)
      return true;
  return false;
}

std::vector<BraceWord> brace_expand(const ast::Word& w) {
  Items items;
  for (const auto& p : w.parts) {
    auto* l = std::get_if<ast::Literal>(&p.v);
    if (l && !l->quoted) {
      for (char c : l->text) items.push_back(Item{c, nullptr});
    } else {
      items.push_back(Item{0, &p});
    }
  }
  std::vector<Items> words;
  expand(items, 0, words);
  std::vector<BraceWord> out;
  out.reserve(words.size());
  for (auto& its : words) {
    BraceWord bw;
    for (auto& i : its) {
      if (i.part) {
        bw.push_back(BraceSeg{{}, i.part});
      } else {
        if (bw.empty() || bw.back().part) bw.push_back(BraceSeg{});
        bw.back().text.push_back(i.c);
      }
    }
    out.push_back(std::move(bw));
  }
  return out;
}

}  // namespace lash::exec
