// Inside words: quoting, parameter expansions, command substitutions ($(...) and
// backquotes), arithmetic expansions, tilde prefixes.
#include <string>

#include "syntax/charclass.h"
#include "syntax/parser_impl.h"

namespace lash::syntax::detail {

namespace {
bool is_name_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(int c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_special_param(int c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '-' || c == '$' || c == '!';
}
// How far looks_like_arith() scans before giving up (and guessing arithmetic).
constexpr size_t kArithScanLimit = 1u << 16;
}  // namespace

void ParserImpl::nul_byte() { fail(rd_.pos(), "NUL byte in input"); }

void ParserImpl::single_quoted(PartsBuilder& b) {
  Pos start = rd_.pos();
  rd_.get();  // '
  b.touch_quoted();
  for (;;) {
    std::string_view rest = rd_.rest();
    size_t n = 0;
    while (n < rest.size() && rest[n] != '\'' && rest[n] != 0) ++n;
    if (n) {
      b.add(rest.substr(0, n), true);
      rd_.skip_raw(n);
    }
    int c = rd_.peek_raw();
    if (c == '\'') {
      rd_.get_raw();
      return;
    }
    if (c == kEof) fail(start, "unterminated quoted string", true);
    if (c == 0) nul_byte();
    // otherwise: the end of an alias frame; continue in the frame below
  }
}

namespace {
void put_utf8(PartsBuilder& b, uint32_t cp) {
  char buf[4];
  int n = 0;
  if (cp < 0x80) { buf[n++] = static_cast<char>(cp); }
  else if (cp < 0x800) { buf[n++] = static_cast<char>(0xC0 | (cp >> 6)); buf[n++] = static_cast<char>(0x80 | (cp & 0x3F)); }
  else if (cp < 0x10000) {
    buf[n++] = static_cast<char>(0xE0 | (cp >> 12)); buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    if (cp > 0x10FFFF) cp = 0xFFFD;
    buf[n++] = static_cast<char>(0xF0 | (cp >> 18)); buf[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
  }
  b.add(std::string_view(buf, static_cast<size_t>(n)), true);
}
int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

// $'...' (bash; POSIX 2024): backslash escapes as in C. A \0 (or \x00) ends the
// string as in bash, since a shell string cannot hold a NUL.
void ParserImpl::ansi_c_quoted(PartsBuilder& b) {
  Pos start = rd_.pos();
  rd_.get();  // '
  b.touch_quoted();
  bool truncated = false;
  auto put = [&](int ch) {
    if (ch == 0) truncated = true;
    if (!truncated) b.add(ch, true);
  };
  for (;;) {
    int c = rd_.get_raw();
    if (c == kEof) fail(start, "unterminated quoted string", true);
    if (c == '\'') return;
    if (c == 0) nul_byte();
    if (c != '\\') {
      put(c);
      continue;
    }
    int d = rd_.get_raw();
    switch (d) {
      case kEof: fail(start, "unterminated quoted string", true);
      case 'a': put('\a'); break;
      case 'b': put('\b'); break;
      case 'e': case 'E': put(0x1b); break;
      case 'f': put('\f'); break;
      case 'n': put('\n'); break;
      case 'r': put('\r'); break;
      case 't': put('\t'); break;
      case 'v': put('\v'); break;
      case '\\': case '\'': case '"': case '?': put(d); break;
      case 'c': {
        if (rd_.peek_raw() == '\'' || rd_.peek_raw() == kEof) {  // a trailing \c stays as written
          put('\\');
          put('c');
          break;
        }
        int e = rd_.get_raw();
        put(e == '?' ? 0x7f : (e & 0x1f));
        break;
      }
      case 'x': case 'u': case 'U': {
        size_t max = d == 'x' ? 2 : d == 'u' ? 4 : 8;
        uint32_t v = 0;
        size_t n = 0;
        while (n < max && hexval(rd_.peek_raw()) >= 0) {
          v = v * 16 + static_cast<uint32_t>(hexval(rd_.get_raw()));
          ++n;
        }
        if (n == 0) {
          put('\\');
          put(d);
        } else if (d == 'x') {
          put(static_cast<int>(v));
        } else if (v == 0) {
          truncated = true;
        } else if (!truncated) {
          put_utf8(b, v);
        }
        break;
      }
      default:
        if (d >= '0' && d <= '7') {
          int v = d - '0';
          for (int k = 0; k < 2 && rd_.peek_raw() >= '0' && rd_.peek_raw() <= '7'; ++k) v = v * 8 + (rd_.get_raw() - '0');
          put(v & 0xff);
        } else {
          put('\\');
          put(d);
        }
        break;
    }
  }
}

// A backslash outside single quotes. Unquoted: quotes the next character. In
// double quotes / here-documents / arithmetic: only before $ ` \ (and " in double
// quotes, } inside a ${...} word) is it an escape; otherwise it is literal.
void ParserImpl::backslash(PartsBuilder& b, Ctx ctx, bool in_param) {
  rd_.get();  // the backslash (a continuation would have been skipped by peek)
  int c = rd_.peek_raw();
  if (c == kEof) {
    b.add('\\', ctx != Ctx::arith);
    return;
  }
  if (c == 0) nul_byte();
  if (ctx == Ctx::unquoted) {
    rd_.get_raw();
    b.add(c, true);
    return;
  }
  bool quoted = ctx != Ctx::arith;
  if (c == '$' || c == '`' || c == '\\' || (c == '"' && (ctx == Ctx::dquote || ctx == Ctx::arith)) ||
      (c == '}' && in_param)) {
    rd_.get_raw();
    b.add(c, true);
  } else {
    b.add('\\', quoted);
  }
}

ast::DoubleQuoted ParserImpl::double_quoted() {
  Pos start = rd_.pos();
  rd_.get();  // "
  ast::DoubleQuoted dq;
  PartsBuilder b(dq.parts);
  for (;;) {
    int c = rd_.peek();
    switch (c) {
      case '"':
        rd_.get();
        b.flush();
        return dq;
      case kEof:
        fail(start, "unterminated quoted string", true);
      case '\\':
        backslash(b, Ctx::dquote, false);
        break;
      case '$':
        dollar(b, Ctx::dquote);
        break;
      case '`':
        backquote(b, Ctx::dquote);
        break;
      case 0:
        nul_byte();
      default: {
        std::string_view rest = rd_.rest();
        size_t n = 0;
        while (n < rest.size() && !has_class(rest[n], kDqSpecial)) ++n;
        if (n == 0) {
          b.add(rd_.get(), true);
        } else {
          b.add(rest.substr(0, n), true);
          rd_.skip_raw(n);
        }
        break;
      }
    }
  }
}

void ParserImpl::dollar(PartsBuilder& b, Ctx ctx) {
  Pos start = rd_.pos();
  rd_.get();  // $
  int c = rd_.peek();
  if (c == '{') {
    Nest nest(*this, start);
    rd_.get();
    braced_param(b, ctx, start);
    return;
  }
  if (c == '\'' && opts_.extensions && (ctx == Ctx::unquoted)) {
    ansi_c_quoted(b);
    return;
  }
  if (c == '(') {
    Nest nest(*this, start);
    rd_.get();
    if (rd_.peek() == '(' && looks_like_arith()) {
      rd_.get();
      arithmetic(b, start);
    } else {
      command_subst(b, start);
    }
    return;
  }
  ast::Parameter p;
  if (is_name_start(c)) {
    std::string_view rest = rd_.rest();
    size_t n = 0;
    while (n < rest.size() && is_name_char(static_cast<unsigned char>(rest[n]))) ++n;
    p.name.assign(rest.substr(0, n));
    rd_.skip_raw_same_line(n);
    // A line continuation inside the name ends the fast scan; finish slowly.
    while (is_name_char(rd_.peek())) p.name.push_back(static_cast<char>(rd_.get()));
  } else if (is_digit(c) || is_special_param(c)) {
    p.name.push_back(static_cast<char>(rd_.get()));
  } else {
    b.add('$', ctx != Ctx::unquoted && ctx != Ctx::arith);
    return;
  }
  b.push(ast::WordPart{std::move(p)});
}

// After "${".
void ParserImpl::braced_param(PartsBuilder& b, Ctx ctx, Pos start) {
  ast::Parameter p;
  // Like dash, a malformed ${...} (${a.b}, ${BASH_SOURCE[0]}, ${x:1}) is an error
  // only when expanded: it becomes a Parameter whose name is the text between the
  // braces, which is never a valid parameter name. The rest is parsed as its word
  // so that nesting and quotes inside are matched.
  auto bad = [&]() {
    if (rd_.peek() == kEof) fail(start, "missing '}'", true);
    ast::Parameter bp;
    bp.arg = std::make_unique<ast::Word>();
    param_arg(*bp.arg, ctx == Ctx::dquote || ctx == Ctx::heredoc ? Ctx::dquote : Ctx::unquoted, start);
    bp.name = source_text(start.off + 2, rd_.end_off() - 1);
    bool valid = is_name(bp.name) ||
                 (!bp.name.empty() && bp.name.find_first_not_of("0123456789") == std::string::npos) ||
                 (bp.name.size() == 1 && is_special_param(static_cast<unsigned char>(bp.name[0])));
    if (valid) bp.name.clear();  // the text could not be recovered (alias text)
    b.push(ast::WordPart{std::move(bp)});
  };
  auto read_name = [&]() -> bool {
    int c = rd_.peek();
    if (is_name_start(c)) {
      while (is_name_char(rd_.peek())) p.name.push_back(static_cast<char>(rd_.get()));
    } else if (is_digit(c)) {
      while (is_digit(rd_.peek())) p.name.push_back(static_cast<char>(rd_.get()));
    } else if (is_special_param(c)) {
      p.name.push_back(static_cast<char>(rd_.get()));
    } else {
      return false;
    }
    return true;
  };
  int c = rd_.peek();
  if (c == '!' && opts_.extensions) {
    int d = rd_.peek_at(1);
    if (is_name_start(d) || is_digit(d) || ((d == '@' || d == '*' || d == '#') && rd_.peek_at(2) == '}')) {
      rd_.get();
      p.indirect = true;
      c = rd_.peek();
    }
  }
  if (c == '#' && !p.indirect) {
    int d = rd_.peek_at(1);
    bool length = is_name_start(d) || is_digit(d) ||
                  (is_special_param(d) && rd_.peek_at(2) == '}');
    if (length) {
      rd_.get();  // #
      read_name();
      if (opts_.extensions && rd_.peek() == '[' && is_name_start(static_cast<unsigned char>(p.name[0]))) {
        rd_.get();
        p.index = std::make_shared<ast::Word>();
        subscript_word(*p.index, start);
      }
      if (rd_.peek() != '}') return bad();
      rd_.get();
      p.op = ast::ParamOp::length;
      b.push(ast::WordPart{std::move(p)});
      return;
    }
  }
  if (!read_name()) return bad();
  c = rd_.peek();
  if (p.indirect && (c == '*' || c == '@') && rd_.peek_at(1) == '}' && is_name_start(static_cast<unsigned char>(p.name[0]))) {
    p.star = c == '*';
    rd_.get();
    rd_.get();
    p.indirect = false;
    p.op = ast::ParamOp::names_prefix;
    b.push(ast::WordPart{std::move(p)});
    return;
  }
  if (opts_.extensions && c == '[' && is_name_start(static_cast<unsigned char>(p.name[0]))) {
    rd_.get();
    p.index = std::make_shared<ast::Word>();
    subscript_word(*p.index, start);
    c = rd_.peek();
    if (p.indirect && c == '}') {
      p.indirect = false;
      p.op = ast::ParamOp::keys;
      rd_.get();
      b.push(ast::WordPart{std::move(p)});
      return;
    }
  }
  if (opts_.extensions) {
    Ctx pat_ctx = (ctx == Ctx::dquote || ctx == Ctx::heredoc) ? Ctx::unquoted : ctx;
    if (c == ':' && rd_.peek_at(1) != '-' && rd_.peek_at(1) != '=' && rd_.peek_at(1) != '?' &&
        rd_.peek_at(1) != '+') {
      rd_.get();
      p.op = ast::ParamOp::substring;
      p.arg = std::make_unique<ast::Word>();
      if (param_word(*p.arg, Ctx::arith, start, ":}") == ':') {
        p.arg2 = std::make_shared<ast::Word>();
        param_word(*p.arg2, Ctx::arith, start, "}");
      }
      b.push(ast::WordPart{std::move(p)});
      return;
    }
    if (c == '/') {
      rd_.get();
      p.op = ast::ParamOp::replace_first;
      int d = rd_.peek();
      if (d == '/') { p.op = ast::ParamOp::replace_all; rd_.get(); }
      else if (d == '#') { p.op = ast::ParamOp::replace_prefix; rd_.get(); }
      else if (d == '%') { p.op = ast::ParamOp::replace_suffix; rd_.get(); }
      p.arg = std::make_unique<ast::Word>();
      if (param_word(*p.arg, pat_ctx, start, "/}") == '/') {
        p.arg2 = std::make_shared<ast::Word>();
        param_word(*p.arg2, ctx, start, "}");
      }
      b.push(ast::WordPart{std::move(p)});
      return;
    }
    if (c == '^' || c == ',' || c == '~') {
      rd_.get();
      bool twice = rd_.peek() == c;
      if (twice) rd_.get();
      p.op = c == '^'   ? (twice ? ast::ParamOp::upper_all : ast::ParamOp::upper_first)
             : c == ',' ? (twice ? ast::ParamOp::lower_all : ast::ParamOp::lower_first)
                        : (twice ? ast::ParamOp::toggle_all : ast::ParamOp::toggle_first);
      p.arg = std::make_unique<ast::Word>();
      param_word(*p.arg, pat_ctx, start, "}");
      b.push(ast::WordPart{std::move(p)});
      return;
    }
  }
  if (c == '}') {
    rd_.get();
    b.push(ast::WordPart{std::move(p)});
    return;
  }
  if (c == ':') {
    rd_.get();
    p.colon = true;
    c = rd_.peek();
    if (c != '-' && c != '=' && c != '?' && c != '+') return bad();
  }
  switch (c) {
    case '-': p.op = ast::ParamOp::use_default; break;
    case '=': p.op = ast::ParamOp::assign_default; break;
    case '?': p.op = ast::ParamOp::error_if_unset; break;
    case '+': p.op = ast::ParamOp::use_alternate; break;
    case '%':
      rd_.get();
      if (rd_.peek() == '%') p.op = ast::ParamOp::remove_large_suffix;
      else { p.op = ast::ParamOp::remove_small_suffix; c = 0; }
      break;
    case '#':
      rd_.get();
      if (rd_.peek() == '#') p.op = ast::ParamOp::remove_large_prefix;
      else { p.op = ast::ParamOp::remove_small_prefix; c = 0; }
      break;
    default:
      return bad();
  }
  if (c != 0) rd_.get();  // the operator's (last) character
  p.arg = std::make_unique<ast::Word>();
  // The pattern of % %% # ## is not quoted by enclosing double quotes (POSIX 2.6.2):
  // "${x##*/}" removes through the last slash.
  bool pattern_op = p.op == ast::ParamOp::remove_small_suffix || p.op == ast::ParamOp::remove_large_suffix ||
                    p.op == ast::ParamOp::remove_small_prefix || p.op == ast::ParamOp::remove_large_prefix;
  param_arg(*p.arg, pattern_op && (ctx == Ctx::dquote || ctx == Ctx::heredoc) ? Ctx::unquoted : ctx, start);
  b.push(ast::WordPart{std::move(p)});
}

// The word after a ${name OP; up to and including the closing '}'.
void ParserImpl::param_arg(ast::Word& arg, Ctx ctx, Pos start) { param_word(arg, ctx, start, "}"); }

int ParserImpl::param_word(ast::Word& arg, Ctx ctx, Pos start, std::string_view stops) {
  Pos begin = rd_.pos();
  PartsBuilder b(arg.parts);
  // Inside double quotes or a here-document the word is in double-quote context.
  bool dq = ctx == Ctx::dquote || ctx == Ctx::heredoc;
  Ctx inner = dq ? Ctx::dquote : (ctx == Ctx::arith ? Ctx::arith : Ctx::unquoted);
  for (;;) {
    int c = rd_.peek();
    if (c != kEof && c != 0 && stops.find(static_cast<char>(c)) != std::string_view::npos) {
      arg.range = {begin.off, rd_.end_off(), begin.line};
      rd_.get();
      b.flush();
      if (!dq) apply_tilde(arg, false);
      return c;
    }
    switch (c) {
      case kEof:
        fail(start, "missing '}'", true);
      case '\\':
        backslash(b, inner, true);
        break;
      case '\'':
        if (dq || ctx == Ctx::arith) {
          b.add(rd_.get(), dq);
        } else {
          single_quoted(b);
        }
        break;
      case '"': {
        ast::DoubleQuoted inner_dq = double_quoted();
        b.push(ast::WordPart{std::move(inner_dq)});
        break;
      }
      case '$':
        dollar(b, inner);
        break;
      case '`':
        backquote(b, inner);
        break;
      case 0:
        nul_byte();
      default:
        b.add(rd_.get(), dq);
        break;
    }
  }
}

// After "name[": the subscript up to the matching ']' (expanded like a word in
// double quotes; for indexed arrays then evaluated as arithmetic).
void ParserImpl::subscript_word(ast::Word& w, Pos start) {
  Pos begin = rd_.pos();
  PartsBuilder b(w.parts);
  int depth = 0;
  for (;;) {
    int c = rd_.peek();
    switch (c) {
      case kEof: fail(start, "missing ']'", true);
      case 0: nul_byte();
      case '[': ++depth; b.add(rd_.get(), false); break;
      case ']':
        if (depth == 0) {
          w.range = {begin.off, rd_.end_off(), begin.line};
          rd_.get();
          b.flush();
          return;
        }
        --depth;
        b.add(rd_.get(), false);
        break;
      case '\\': backslash(b, Ctx::unquoted, false); break;
      case '\'': single_quoted(b); break;
      case '"': {
        ast::DoubleQuoted dq = double_quoted();
        b.push(ast::WordPart{std::move(dq)});
        break;
      }
      case '$': dollar(b, Ctx::unquoted); break;
      case '`': backquote(b, Ctx::unquoted); break;
      default: b.add(rd_.get(), false); break;
    }
  }
}

// After "$(": a nested program up to the matching ')'.
void ParserImpl::command_subst(PartsBuilder& b, Pos start, char process) {
  ast::CommandSubst cs;
  cs.process = process;
  cs.body = compound_list();
  Token& t = peek_cmd();
  if (t.kind != Tok::rparen) unexpected(t, "')'");
  consume();
  b.push(ast::WordPart{std::move(cs)});
}

// Called with "$(" consumed and '(' next: decides between $((arithmetic)) and
// $( (subshell) ...) the way bash does: arithmetic if the parenthesis that closes
// the "$((" level is immediately followed by a second ')'.
bool ParserImpl::looks_like_arith() const {
  std::string_view rest = rd_.rest();
  size_t limit = rest.size() < kArithScanLimit ? rest.size() : kArithScanLimit;
  int depth = 0;
  for (size_t i = 1; i < limit; ++i) {  // rest[0] is the second '('
    char c = rest[i];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth == 0) return i + 1 >= rest.size() || rest[i + 1] == ')';
      --depth;
    }
  }
  return true;
}

// After "$((": the expression up to the matching "))".
void ParserImpl::arithmetic(PartsBuilder& b, Pos start) {
  ast::Arithmetic a;
  a.expr = std::make_unique<ast::Word>();
  Pos begin = rd_.pos();
  PartsBuilder e(a.expr->parts);
  int depth = 0;
  for (;;) {
    int c = rd_.peek();
    switch (c) {
      case kEof:
        fail(start, "unterminated arithmetic expansion", true);
      case '(':
        ++depth;
        e.add(rd_.get(), false);
        break;
      case ')':
        if (depth > 0) {
          --depth;
          e.add(rd_.get(), false);
          break;
        }
        a.expr->range = {begin.off, rd_.end_off(), begin.line};
        rd_.get();
        if (rd_.peek() == ')') {
          rd_.get();
          e.flush();
          b.push(ast::WordPart{std::move(a)});
          return;
        }
        e.add(')', false);  // unbalanced: keep going like dash
        break;
      case '\\':
        backslash(e, Ctx::arith, false);
        break;
      case '"': {
        ast::DoubleQuoted dq = double_quoted();
        e.push(ast::WordPart{std::move(dq)});
        break;
      }
      case '$':
        dollar(e, Ctx::arith);
        break;
      case '`':
        backquote(e, Ctx::arith);
        break;
      case 0:
        nul_byte();
      default:
        e.add(rd_.get(), false);
        break;
    }
  }
}

// `...`: the text up to the closing backquote, with \$ \` \\ (and \" inside double
// quotes) unescaped, parsed as a separate program.
void ParserImpl::backquote(PartsBuilder& b, Ctx ctx) {
  Pos start = rd_.pos();
  Nest nest(*this, start);
  rd_.get();  // `
  uint32_t body_off = rd_.end_off();
  uint32_t body_line = rd_.pos().line;
  std::string body;
  for (;;) {
    int c = rd_.get_raw();
    if (c == '`') break;
    if (c == kEof) fail(start, "unterminated '`'", true);
    if (c == 0) nul_byte();
    if (c == '\\') {
      int d = rd_.get_raw();
      if (d == '\n') continue;
      if (d == kEof) fail(start, "unterminated '`'", true);
      if (d == 0) nul_byte();
      if (!(d == '$' || d == '`' || d == '\\' || (d == '"' && ctx == Ctx::dquote)))
        body.push_back('\\');
      body.push_back(static_cast<char>(d));
      continue;
    }
    body.push_back(static_cast<char>(c));
  }
  ParserImpl sub(body, opts_, root_, body_off, body_line);
  sub.nested_ = true;
  sub.text_complete_ = true;
  sub.depth_ = depth_;
  sub.stack_base_ = stack_base_;
  ast::CommandSubst cs;
  cs.backquoted = true;
  try {
    cs.body = sub.program();
  } catch (const ParseAbort&) {
    err_ = std::move(sub.err_);
    err_.incomplete = false;
    throw;
  }
  b.push(ast::WordPart{std::move(cs)});
}

// ---- tilde prefixes --------------------------------------------------------------

namespace {
bool valid_login_char(char c) {
  return is_name_char(static_cast<unsigned char>(c)) || c == '.' || c == '-';
}

// If `text` (an unquoted literal at index `i` of `n` parts) has a tilde prefix at
// `at`, returns its end (index of the terminating '/' or ':'), else npos.
size_t tilde_end(const std::string& text, size_t at, bool assignment, bool last_part) {
  size_t j = at + 1;
  while (j < text.size() && text[j] != '/' && !(assignment && text[j] == ':')) {
    if (!valid_login_char(text[j])) return std::string::npos;
    ++j;
  }
  if (j == text.size() && !last_part) return std::string::npos;  // prefix runs into quoted/expanded text
  return j;
}
}  // namespace

void apply_tilde(ast::Word& w, bool assignment) {
  if (w.parts.empty()) return;
  // Fast check: anything to do?
  bool any = false;
  for (size_t i = 0; i < w.parts.size() && !any; ++i) {
    auto* lit = std::get_if<ast::Literal>(&w.parts[i].v);
    if (!lit || lit->quoted) {
      if (!assignment) break;
      continue;
    }
    if (!assignment) {
      any = i == 0 && !lit->text.empty() && lit->text[0] == '~';
      break;
    }
    any = lit->text.find('~') != std::string::npos;
  }
  if (!any) return;

  std::vector<ast::WordPart> out;
  out.reserve(w.parts.size() + 2);
  bool at_start = true;  // next character begins the word or follows an unquoted ':'
  for (size_t i = 0; i < w.parts.size(); ++i) {
    auto* lit = std::get_if<ast::Literal>(&w.parts[i].v);
    bool last = i + 1 == w.parts.size();
    if (!lit || lit->quoted || (!assignment && i > 0)) {
      out.push_back(std::move(w.parts[i]));
      at_start = false;
      continue;
    }
    const std::string& text = lit->text;
    std::string pending;
    size_t k = 0;
    while (k < text.size()) {
      if (at_start && text[k] == '~') {
        size_t end = tilde_end(text, k, assignment, last);
        if (end != std::string::npos) {
          if (!pending.empty()) out.push_back(ast::WordPart{ast::Literal{std::move(pending), false}});
          pending.clear();
          out.push_back(ast::WordPart{ast::Tilde{text.substr(k + 1, end - k - 1)}});
          k = end;
          at_start = false;
          continue;
        }
      }
      at_start = assignment && text[k] == ':';
      pending.push_back(text[k]);
      ++k;
    }
    if (!pending.empty()) out.push_back(ast::WordPart{ast::Literal{std::move(pending), false}});
    if (!assignment) at_start = false;
  }
  w.parts = std::move(out);
}

}  // namespace lash::syntax::detail
