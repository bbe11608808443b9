// Character source for the lexer: the text being parsed plus a stack of pushed
// alias replacement texts (POSIX 2.3.1). Line continuations (backslash-newline)
// are removed by the "logical" accessors (peek/get) and kept by the raw ones.
// Internal to src/syntax.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lash::syntax::detail {

constexpr int kEof = -1;

// A position in the parsed text: byte offset (already including the parser's base
// offset) and 1-based line.
struct Pos {
  uint32_t off = 0;
  uint32_t line = 0;
};

class Reader {
 public:
  Reader(std::string_view text, uint32_t base_off, uint32_t first_line)
      : text_(text), p_(text.data()), e_(text.data() + text.size()),
        base_off_(base_off), line_(first_line) {}

  // Next character with line continuations skipped; pops exhausted alias frames.
  int peek() {
    for (;;) {
      if (p_ < e_) {
        if (*p_ == '\\' && p_ + 1 < e_ && p_[1] == '\n') {
          p_ += 2;
          if (frames_.empty()) {
            ++line_;
            if (p_ == e_) continuation_at_eof_ = true;
          }
          continue;
        }
        return static_cast<unsigned char>(*p_);
      }
      if (frames_.empty()) return kEof;
      pop_frame();
    }
  }
  int get() {
    int c = peek();
    if (c != kEof) advance_one(c);
    return c;
  }
  // Next character as written (no continuation removal).
  int peek_raw() {
    for (;;) {
      if (p_ < e_) return static_cast<unsigned char>(*p_);
      if (frames_.empty()) return kEof;
      pop_frame();
    }
  }
  int get_raw() {
    int c = peek_raw();
    if (c != kEof) advance_one(c);
    return c;
  }
  // The k-th logical character ahead (k = 0 is peek()), looking only inside the
  // current frame; kEof beyond it. Call peek() first.
  int peek_at(size_t k) const {
    const char* p = p_;
    for (;;) {
      while (p + 1 < e_ && *p == '\\' && p[1] == '\n') p += 2;
      if (p >= e_) return kEof;
      if (k == 0) return static_cast<unsigned char>(*p);
      --k;
      ++p;
    }
  }
  // The rest of the current frame up to (not including) the next '\n', as written.
  std::string_view peek_line() const {
    const char* q = p_;
    while (q < e_ && *q != '\n') ++q;
    return {p_, static_cast<size_t>(q - p_)};
  }
  // The rest of the current frame, as written.
  std::string_view rest() const { return {p_, static_cast<size_t>(e_ - p_)}; }
  // Consumes n raw characters of the current frame, none of them a newline.
  void skip_raw_same_line(size_t n) { p_ += n; }
  // Consumes n raw characters of the current frame (n <= rest().size()).
  void skip_raw(size_t n) {
    if (frames_.empty()) line_ += static_cast<uint32_t>(std::count(p_, p_ + n, '\n'));
    p_ += n;
  }

  // Position of the next character. Inside alias text: the alias word's position.
  Pos pos() const {
    if (!frames_.empty()) return frames_.front()->origin;
    return {base_off_ + static_cast<uint32_t>(p_ - text_.data()), line_};
  }
  // Offset just past the last consumed character (for range ends).
  uint32_t end_off() const {
    if (!frames_.empty()) return frames_.front()->origin_end;
    return base_off_ + static_cast<uint32_t>(p_ - text_.data());
  }
  // Offset of the first unconsumed byte of the parsed text (not counting base).
  size_t main_offset() const {
    if (!frames_.empty()) return frames_.front()->saved_p - text_.data();
    return static_cast<size_t>(p_ - text_.data());
  }
  bool in_alias() const { return !frames_.empty(); }
  // A point of the main text to come back to (the parser re-reads "!(" in command
  // position as the '!' keyword; see ParserImpl::pipeline). Outside alias text only.
  struct Mark {
    const char* p = nullptr;
    uint32_t line = 0;
  };
  Mark mark() const { return frames_.empty() ? Mark{p_, line_} : Mark{}; }
  bool rewind(const Mark& m) {
    if (m.p == nullptr || !frames_.empty()) return false;
    p_ = m.p;
    line_ = m.line;
    return true;
  }
  size_t alias_depth() const { return frames_.size(); }
  // True when the last line continuation removed ran into the end of the text.
  bool continuation_at_eof() const { return continuation_at_eof_ && p_ == e_ && frames_.empty(); }

  // Pushes an alias replacement: the text is read next, then reading resumes here.
  void push_alias(std::string_view name, std::string_view value, Pos origin, uint32_t origin_end) {
    auto f = std::make_unique<Frame>();
    f->name.assign(name);
    f->text.assign(value);
    f->blank_end = !value.empty() && (value.back() == ' ' || value.back() == '\t');
    // Like dash: an alias text not ending in a blank is followed by a virtual
    // blank, so its last word ends while the alias is still marked in use.
    if (!f->blank_end) f->text.push_back(' ');
    f->origin = frames_.empty() ? origin : frames_.front()->origin;
    f->origin_end = frames_.empty() ? origin_end : frames_.front()->origin_end;
    f->saved_p = p_;
    f->saved_e = e_;
    p_ = f->text.data();
    e_ = p_ + f->text.size();
    frames_.push_back(std::move(f));
  }
  bool alias_in_use(std::string_view name) const {
    for (const auto& f : frames_)
      if (f->name == name) return true;
    return false;
  }
  // Set when an alias text ending in a blank was finished: the next word is
  // eligible for alias substitution too. Reading the flag clears it.
  bool take_alias_check() {
    bool r = alias_check_;
    alias_check_ = false;
    return r;
  }

 private:
  struct Frame {
    std::string name;
    std::string text;
    bool blank_end = false;
    Pos origin;
    uint32_t origin_end = 0;
    const char* saved_p = nullptr;
    const char* saved_e = nullptr;
  };

  void advance_one(int c) {
    ++p_;
    if (c == '\n' && frames_.empty()) ++line_;
  }
  void pop_frame() {
    if (frames_.back()->blank_end) alias_check_ = true;
    p_ = frames_.back()->saved_p;
    e_ = frames_.back()->saved_e;
    frames_.pop_back();
  }

  std::string_view text_;
  const char* p_;
  const char* e_;
  uint32_t base_off_;
  uint32_t line_;
  bool continuation_at_eof_ = false;
  bool alias_check_ = false;
  std::vector<std::unique_ptr<Frame>> frames_;
};

}  // namespace lash::syntax::detail
