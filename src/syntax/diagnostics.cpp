// Syntax errors: positions, dash-like messages, rendering; the nesting guard.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "syntax/parser_impl.h"

namespace lash::syntax {

std::string SyntaxError::render() const {
  return filename + ":" + std::to_string(line) + ":" + std::to_string(column) +
         ": syntax error: " + message;
}

bool is_name(std::string_view name) {
  if (name.empty()) return false;
  auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!start(name[0])) return false;
  for (char c : name.substr(1))
    if (!start(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

namespace detail {

namespace {
// Stack the parser may use below its entry point before it reports "nesting too
// deep": a second line of defence behind max_depth. An optimized build needs about
// 1.5 KB per nesting level (so max_depth 1000 fits easily); sanitizer builds have
// much larger frames and may hit this budget first.

const char* op_text(Tok k) {
  switch (k) {
    case Tok::and_if: return "&&";
    case Tok::or_if: return "||";
    case Tok::dsemi: return ";;";
    case Tok::semi_and: return ";&";
    case Tok::dsemi_and: return ";;&";
    case Tok::pipe: return "|";
    case Tok::amp: return "&";
    case Tok::semi: return ";";
    case Tok::less: return "<";
    case Tok::great: return ">";
    case Tok::dgreat: return ">>";
    case Tok::clobber: return ">|";
    case Tok::lessgreat: return "<>";
    case Tok::lessand: return "<&";
    case Tok::greatand: return ">&";
    case Tok::dless: return "<<";
    case Tok::dlessdash: return "<<-";
    case Tok::and_great: return "&>";
    case Tok::lparen: return "(";
    case Tok::rparen: return ")";
    default: return "?";
  }
}
}  // namespace

void ParserImpl::fail(Pos at, std::string message, bool incomplete) {
  SyntaxError& e = err_;
  e.message = std::move(message);
  e.filename = opts_.filename;
  uint32_t off = std::min<uint32_t>(at.off, static_cast<uint32_t>(root_.size()));
  e.offset = off;
  std::string_view before = root_.substr(0, off);
  e.line = opts_.first_line + static_cast<uint32_t>(std::count(before.begin(), before.end(), '\n'));
  size_t nl = before.rfind('\n');
  e.column = static_cast<uint32_t>(nl == std::string_view::npos ? off + 1 : off - nl);
  e.incomplete = incomplete && !nested_;
  throw ParseAbort{};
}

std::string ParserImpl::describe(const Token& t) const {
  switch (t.kind) {
    case Tok::eof: return "end of file";
    case Tok::newline: return "newline";
    case Tok::word:
    case Tok::io_number: {
      std::string_view s;
      if (t.plain) {
        s = t.text();
      } else if (!rd_.in_alias() && t.begin.off >= base_off_ && t.end <= base_off_ + text_.size() &&
                 t.end > t.begin.off) {
        s = text_.substr(t.begin.off - base_off_, t.end - t.begin.off);
      } else {
        return "word";
      }
      std::string out = "'";
      if (s.size() > 40) {
        out.append(s.substr(0, 37));
        out += "...";
      } else {
        out.append(s);
      }
      return out + "'";
    }
    default:
      return std::string("'") + op_text(t.kind) + "'";
  }
}

std::string ParserImpl::source_text(uint32_t from, uint32_t to) const {
  if (rd_.in_alias() || from < base_off_ || to < from || to - base_off_ > text_.size()) return {};
  std::string_view s = text_.substr(from - base_off_, to - from);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
      ++i;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

void ParserImpl::unexpected(const Token& t, std::string_view expecting) {
  std::string m = "unexpected " + describe(t);
  if (!expecting.empty()) {
    m += " (expecting ";
    m.append(expecting);
    m += ")";
  }
  fail(t.begin, std::move(m), t.kind == Tok::eof);
}

ParserImpl::Nest::Nest(ParserImpl& p, Pos at) : p_(p) {
  ++p.depth_;
  size_t used = 0;
  if (p.stack_base_) {
    // Frame addresses, not addresses of locals: sanitizers may move locals to a
    // heap "fake stack".
    auto a = reinterpret_cast<uintptr_t>(p.stack_base_);
    auto b = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    used = a > b ? a - b : b - a;
  }
  if (static_cast<uint32_t>(p.depth_) > p.opts_.max_depth) {
    --p.depth_;
    p.fail(at, "nesting too deep (limit " + std::to_string(p.opts_.max_depth) + ")");
  }
  if (used > p.opts_.max_stack_bytes) {
    --p.depth_;
    p.fail(at, "nesting too deep (out of stack)");
  }
}

}  // namespace detail
}  // namespace lash::syntax
