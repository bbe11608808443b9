// Tokens: operators, newlines, words, io_numbers; comments; alias substitution.
#include <string>

#include "syntax/charclass.h"
#include "syntax/parser_impl.h"

namespace lash::syntax::detail {

namespace {
// Upper bound on alias substitutions while parsing one complete command: stops
// exponential alias chains (each ending in a blank) from running away.
constexpr uint32_t kMaxAliasSubstitutions = 100000;

bool is_word_end(int c) { return c == kEof || has_class(static_cast<char>(c), kWordEnd); }
}  // namespace

std::string_view Token::text() const {
  if (!plain || word.parts.empty()) return {};
  return std::get<ast::Literal>(word.parts[0].v).text;
}

bool is_reserved_word(std::string_view w) {
  switch (w.size()) {
    case 1: return w == "!" || w == "{" || w == "}";
    case 2: return w == "if" || w == "fi" || w == "do" || w == "in";
    case 3: return w == "for";
    case 4: return w == "then" || w == "else" || w == "elif" || w == "done" || w == "case" ||
                   w == "esac";
    case 5: return w == "while" || w == "until";
    default: return false;
  }
}

Token& ParserImpl::peek() {
  if (!have_tok_) {
    lex_token();
    have_tok_ = true;
  }
  return tok_;
}

Token& ParserImpl::peek_word(unsigned flags) {
  for (;;) {
    Token& t = peek();
    if (t.kind != Tok::word || !t.plain || t.alias_tried || !opts_.alias) return t;
    if (!(flags & kAliases) && !t.alias_check) return t;
    if ((flags & kKeywords) && is_reserved_word(t.text())) return t;
    if (!try_alias(t)) return t;
    // The first word of the replacement is eligible too (alias chains).
    flags |= kAliases;
  }
}

bool ParserImpl::try_alias(Token& t) {
  t.alias_tried = true;
  std::string_view name = t.text();
  if (rd_.alias_in_use(name)) return false;
  const std::string* value = opts_.alias(name);
  if (!value) return false;
  if (++alias_count_ > kMaxAliasSubstitutions || rd_.alias_depth() >= opts_.max_depth)
    fail(t.begin, "too many alias substitutions");
  rd_.push_alias(name, *value, t.begin, t.end);
  have_tok_ = false;
  return true;
}

void ParserImpl::consume() {
  Token& t = peek();
  have_tok_ = false;
  last_end_ = t.end;
  if (t.kind == Tok::newline && !pending_.empty()) read_heredocs();
}

void ParserImpl::lex_token() {
  // Built in a local: a word may contain $(...), whose nested parse uses tok_.
  Token t;
  int c;
  for (;;) {
    c = rd_.peek();
    if (c == ' ' || c == '\t') {
      rd_.get();
    } else if (c == '#') {
      // A comment runs to the end of the line (a trailing backslash does not
      // continue it).
      for (int d = rd_.peek_raw(); d != kEof && d != '\n'; d = rd_.peek_raw()) rd_.get_raw();
    } else {
      break;
    }
  }
  t.alias_check = rd_.take_alias_check();
  t.begin = rd_.pos();
  auto op = [&](Tok k, int n) {
    for (int i = 0; i < n; ++i) rd_.get();
    t.kind = k;
  };
  auto next_is = [&](int ch) {
    rd_.get();
    if (rd_.peek() != ch) return false;
    rd_.get();
    return true;
  };
  switch (c) {
    case kEof:
      if (!text_complete_ && rd_.continuation_at_eof())
        fail(t.begin, "unexpected end of file after line continuation", true);
      t.kind = Tok::eof;
      break;
    case '\n': op(Tok::newline, 1); break;
    case '(': op(Tok::lparen, 1); break;
    case ')': op(Tok::rparen, 1); break;
    case '&':
      rd_.get();
      c = rd_.peek();
      if (c == '&') op(Tok::and_if, 1);
      else if (c == '>') {
        rd_.get();
        if (opts_.extensions && rd_.peek() == '>') op(Tok::and_dgreat, 1);
        else t.kind = Tok::and_great;
      }
      else t.kind = Tok::amp;
      break;
    case '|':
      rd_.get();
      c = rd_.peek();
      if (c == '|') op(Tok::or_if, 1);
      else if (c == '&' && opts_.extensions) op(Tok::pipe_amp, 1);
      else t.kind = Tok::pipe;
      break;
    case ';':
      rd_.get();
      c = rd_.peek();
      if (c == ';') {
        op(Tok::dsemi, 1);
        if (opts_.extensions && rd_.peek() == '&') op(Tok::dsemi_and, 1);  // bash's ;;&
      } else if (c == '&') {
        op(Tok::semi_and, 1);
      }
      else t.kind = Tok::semi;
      break;
    case '<':
      if (opts_.extensions && rd_.peek_at(1) == '(') {  // <(list): a word
        lex_word(t);
        break;
      }
      rd_.get();
      c = rd_.peek();
      if (c == '<') {
        rd_.get();
        if (rd_.peek() == '-') op(Tok::dlessdash, 1);
        else if (rd_.peek() == '<' && opts_.extensions) op(Tok::tless, 1);
        else t.kind = Tok::dless;
      } else if (c == '&') {
        op(Tok::lessand, 1);
      } else if (c == '>') {
        op(Tok::lessgreat, 1);
      } else {
        t.kind = Tok::less;
      }
      break;
    case '>':
      if (opts_.extensions && rd_.peek_at(1) == '(') {  // >(list): a word
        lex_word(t);
        break;
      }
      rd_.get();
      c = rd_.peek();
      if (c == '>') op(Tok::dgreat, 1);
      else if (c == '|') op(Tok::clobber, 1);
      else if (c == '&') op(Tok::greatand, 1);
      else t.kind = Tok::great;
      break;
    default:
      lex_word(t);
      break;
  }
  t.end = rd_.end_off();
  if (t.end < t.begin.off) t.end = t.begin.off;
  tok_ = std::move(t);
}

void ParserImpl::lex_word(Token& t) {
  t.kind = Tok::word;
  PartsBuilder b(t.word.parts);
  bool plain = true;
  int extglob_depth = 0;  // open extglob parentheses
  const Reader::Mark start_mark = rd_.mark();
  for (;;) {
    int c = rd_.peek();
    if ((c == '<' || c == '>') && opts_.extensions && rd_.peek_at(1) == '(') {
      // Process substitution, bash's <(list) / >(list).
      plain = false;
      Pos start = rd_.pos();
      rd_.get();
      rd_.get();
      command_subst(b, start, char(c));
      continue;
    }
    if (opts_.extensions && c != kEof) {
      // bash's extglob groups ?(..) *(..) +(..) @(..) !(..): the parentheses and
      // '|' inside belong to the word. bash lexes them only under shopt -s extglob;
      // without it they are a syntax error, so taking them always is harmless and
      // lets a script enable extglob right before using it.
      const bool bang_keyword = no_bang_group_ && c == '!';
      no_bang_group_ = false;
      if (c == '!' && rd_.peek_at(1) == '(' && rd_.mark().p == start_mark.p && !bang_keyword) t.bang_mark = start_mark;
      if (bang_keyword) {
        b.add(char(rd_.get()), false);
        break;  // the word "!": the '(' that follows opens a subshell
      }
      if ((c == '?' || c == '*' || c == '+' || c == '@' || c == '!') && rd_.peek_at(1) == '(') {
        plain = false;
        b.add(char(rd_.get()), false);
        b.add(char(rd_.get()), false);
        ++extglob_depth;
        continue;
      }
      if (extglob_depth > 0 && (c == '(' || c == ')' || c == '|')) {
        if (c == '(') ++extglob_depth;
        if (c == ')') --extglob_depth;
        b.add(char(rd_.get()), false);
        continue;
      }
    }
    if (is_word_end(c)) break;
    switch (c) {
      case '\\':
        plain = false;
        backslash(b, Ctx::unquoted, false);
        break;
      case '\'':
        plain = false;
        single_quoted(b);
        break;
      case '"': {
        plain = false;
        ast::DoubleQuoted dq = double_quoted();
        b.push(ast::WordPart{std::move(dq)});
        break;
      }
      case '$':
        plain = false;
        dollar(b, Ctx::unquoted);
        break;
      case '`':
        plain = false;
        backquote(b, Ctx::unquoted);
        break;
      case 0:
        nul_byte();
      default: {
        // Fast path: copy a run of ordinary characters straight from the text.
        std::string_view rest = rd_.rest();
        size_t n = 0;
        while (n < rest.size() && !has_class(rest[n], kWordEnd | kWordSpecial)) {
          // Stop before an extglob opener so the loop above takes it.
          if (opts_.extensions && n + 1 < rest.size() && rest[n + 1] == '(' &&
              (rest[n] == '?' || rest[n] == '*' || rest[n] == '+' || rest[n] == '@' || rest[n] == '!'))
            break;
          ++n;
        }
        if (n == 0) {  // cannot happen (c is ordinary), but never loop forever
          b.add(rd_.get(), false);
        } else {
          b.add(rest.substr(0, n), false);
          rd_.skip_raw_same_line(n);
        }
        break;
      }
    }
  }
  b.flush();
  t.plain = plain && t.word.parts.size() == 1;
  t.word.range = {t.begin.off, rd_.end_off(), t.begin.line};
  if (t.plain) {
    // io_number: digits immediately followed by '<' or '>'.
    int c = rd_.peek();
    std::string_view s = t.text();
    if ((c == '<' || c == '>') && !s.empty() && s.size() <= 9) {
      int v = 0;
      bool digits = true;
      for (char ch : s) {
        if (ch < '0' || ch > '9') { digits = false; break; }
        v = v * 10 + (ch - '0');
      }
      if (digits) {
        t.kind = Tok::io_number;
        t.io_number = v;
      }
    }
    // bash's {name}>file: a name in braces right before the operator.
    if ((c == '<' || c == '>') && opts_.extensions && s.size() >= 3 && s.front() == '{' && s.back() == '}') {
      std::string_view n = s.substr(1, s.size() - 2);
      bool ok = !(n[0] >= '0' && n[0] <= '9');
      for (char ch : n)
        if (!(ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) ok = false;
      if (ok) {
        t.kind = Tok::io_number;
        t.io_number = -1;
        t.io_var = std::string(n);
      }
    }
  }
}

}  // namespace lash::syntax::detail
