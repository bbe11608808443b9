// Bash's compound commands that scripts use: (( expr )), for (( ; ; )) and
// [[ expression ]]. Only reached when ParseOptions::extensions is on.
#include <cctype>

#include "syntax/parser_impl.h"

namespace lash::syntax::detail {

namespace {
bool is_word(const Token& t, std::string_view w) { return t.kind == Tok::word && t.plain && t.text() == w; }

bool is_unary_test(std::string_view w) {
  return w.size() == 2 && w[0] == '-' && std::string_view("abcdefghknoprstuvwxzGLNOSR").find(w[1]) != std::string_view::npos;
}

bool is_binary_test(std::string_view w) {
  return w == "=" || w == "==" || w == "!=" || w == "=~" || w == "-eq" || w == "-ne" || w == "-lt" ||
         w == "-le" || w == "-gt" || w == "-ge" || w == "-nt" || w == "-ot" || w == "-ef";
}

// Splits the unquoted literal text of W at top-level ';' into up to three words.
std::vector<ast::Word> split_semicolons(ast::Word& w) {
  std::vector<ast::Word> out(1);
  int depth = 0;
  for (auto& part : w.parts) {
    auto* lit = std::get_if<ast::Literal>(&part.v);
    if (!lit || lit->quoted) {
      out.back().parts.push_back(std::move(part));
      continue;
    }
    std::string cur;
    for (char c : lit->text) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == ';' && depth == 0) {
        if (!cur.empty()) out.back().parts.push_back(ast::WordPart{ast::Literal{std::move(cur), false}});
        cur.clear();
        out.emplace_back();
        continue;
      }
      cur.push_back(c);
    }
    if (!cur.empty()) out.back().parts.push_back(ast::WordPart{ast::Literal{std::move(cur), false}});
  }
  return out;
}
}  // namespace

bool ParserImpl::at_double_paren() {
  // The '(' token was just read: the reader stands after it.
  return rd_.peek() == '(' && looks_like_arith();
}

ast::Word ParserImpl::arith_until_close() {
  Pos start = peek().begin;
  rd_.get();  // the second '('
  std::vector<ast::WordPart> parts;
  PartsBuilder b(parts);
  arithmetic(b, start);
  have_tok_ = false;
  last_end_ = rd_.end_off();
  ast::Word w;
  if (!parts.empty()) {
    auto& a = std::get<ast::Arithmetic>(parts.back().v);
    if (a.expr) w = std::move(*a.expr);
  }
  return w;
}

ast::Command ParserImpl::arith_command() {
  ast::ArithCommand ac;
  ac.expr = arith_until_close();
  ast::Command c;
  c.v = std::move(ac);
  return c;
}

ast::Command ParserImpl::arith_for() {
  Pos at = peek().begin;
  ast::Word all = arith_until_close();
  std::vector<ast::Word> three = split_semicolons(all);
  if (three.size() != 3) fail(at, "syntax error in for (( ; ; ))");
  ast::ArithFor af;
  af.init = std::move(three[0]);
  af.cond = std::move(three[1]);
  af.step = std::move(three[2]);
  if (peek().kind == Tok::semi) consume();
  linebreak();
  if (is_word(peek_cmd(), "{")) {
    ast::Command body = brace_group();
    af.body = std::get<ast::BraceGroup>(body.v).body;
  } else {
    af.body = do_group();
  }
  ast::Command c;
  c.v = std::move(af);
  return c;
}

ast::Command ParserImpl::cond_command() {
  consume();  // [[
  ast::CondCommand cc;
  cc.root = cond_or();
  linebreak();
  Token& t = peek();
  if (!is_word(t, "]]")) unexpected(t, "']]'");
  consume();
  ast::Command c;
  c.v = std::move(cc);
  return c;
}

ast::CondNode ParserImpl::cond_or() {
  ast::CondNode left = cond_and();
  for (;;) {
    linebreak();
    if (peek().kind != Tok::or_if) return left;
    consume();
    ast::CondNode n;
    n.kind = ast::CondNode::Kind::either;
    n.kids.push_back(std::move(left));
    n.kids.push_back(cond_and());
    left = std::move(n);
  }
}

ast::CondNode ParserImpl::cond_and() {
  ast::CondNode left = cond_not();
  for (;;) {
    linebreak();
    if (peek().kind != Tok::and_if) return left;
    consume();
    ast::CondNode n;
    n.kind = ast::CondNode::Kind::both;
    n.kids.push_back(std::move(left));
    n.kids.push_back(cond_not());
    left = std::move(n);
  }
}

ast::CondNode ParserImpl::cond_not() {
  linebreak();
  if (is_word(peek(), "!")) {
    consume();
    ast::CondNode n;
    n.kind = ast::CondNode::Kind::negate;
    n.kids.push_back(cond_not());
    return n;
  }
  return cond_primary();
}

ast::CondNode ParserImpl::cond_primary() {
  linebreak();
  Nest nest(*this, peek().begin);
  Token& t = peek();
  if (t.kind == Tok::lparen) {
    consume();
    ast::CondNode n = cond_or();
    linebreak();
    if (peek().kind != Tok::rparen) unexpected(peek(), "')'");
    consume();
    return n;
  }
  if (t.kind != Tok::word || is_word(t, "]]")) unexpected(t, "a conditional expression");
  ast::CondNode n;
  std::string first_text = t.plain ? std::string(t.text()) : std::string();
  n.words.push_back(take_word(t));
  consume();
  Token& op = peek();
  if (is_unary_test(first_text) && op.kind == Tok::word && !is_word(op, "]]")) {
    n.kind = ast::CondNode::Kind::unary;
    n.op = first_text;
    n.words[0] = take_word(op);
    consume();
    return n;
  }
  std::string opname;
  if (op.kind == Tok::less) opname = "<";
  else if (op.kind == Tok::great) opname = ">";
  else if (op.kind == Tok::word && op.plain && is_binary_test(op.text())) opname = std::string(op.text());
  if (opname.empty()) return n;  // a lone word: true when not empty
  consume();
  n.kind = ast::CondNode::Kind::binary;
  n.op = opname;
  if (opname == "=~") {
    n.words.push_back(cond_regex_word());
    return n;
  }
  Token& rhs = peek();
  if (rhs.kind != Tok::word) unexpected(rhs, "a word");
  n.words.push_back(take_word(rhs));
  consume();
  return n;
}

// The right side of =~ as bash reads it: up to a blank outside parentheses, with
// '(' ')' '|' and the like taken as regex characters, quotes quoting.
ast::Word ParserImpl::cond_regex_word() {
  while (rd_.peek() == ' ' || rd_.peek() == '\t') rd_.get();
  ast::Word w;
  Pos begin = rd_.pos();
  PartsBuilder b(w.parts);
  int depth = 0;
  for (;;) {
    int c = rd_.peek();
    if (c == kEof) break;
    if (depth == 0 && (c == ' ' || c == '\t' || c == '\n')) break;
    if (depth == 0 && ((c == '&' && rd_.peek_at(1) == '&') || (c == '|' && rd_.peek_at(1) == '|'))) break;
    if (c == ')' && depth == 0) break;
    switch (c) {
      case '\\': backslash(b, Ctx::unquoted, false); break;
      case '\'': single_quoted(b); break;
      case '"': {
        ast::DoubleQuoted dq = double_quoted();
        b.push(ast::WordPart{std::move(dq)});
        break;
      }
      case '$': dollar(b, Ctx::unquoted); break;
      case 0: nul_byte();
      default:
        if (c == '(') ++depth;
        if (c == ')') --depth;
        b.add(rd_.get(), false);
        break;
    }
  }
  b.flush();
  if (w.parts.empty()) fail(begin, "missing regular expression after '=~'");
  w.range = {begin.off, rd_.end_off(), begin.line};
  last_end_ = rd_.end_off();
  return w;
}

}  // namespace lash::syntax::detail

namespace lash::syntax::detail {

// Recognises the assignment forms bash adds. A plain name=value (no '[', no '+=',
// not followed by '(') is left to the POSIX path, except inside a declaration
// utility's arguments, where only compound assignments are taken here.
bool ParserImpl::ext_assignment(Token& t, ast::Assignment& a) {
  if (t.word.parts.empty()) return false;
  auto* lit = std::get_if<ast::Literal>(&t.word.parts[0].v);
  if (!lit || lit->quoted) return false;
  const std::string& text = lit->text;
  size_t n = 0;
  while (n < text.size() && (text[n] == '_' || std::isalnum(static_cast<unsigned char>(text[n])))) ++n;
  if (n == 0 || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  if (n == text.size()) return false;
  std::vector<ast::WordPart> rest;  // the value's parts
  std::shared_ptr<ast::Word> sub;
  bool append = false;
  if (text[n] == '[') {
    // The subscript runs to the matching ']' in unquoted literal text, then "=" or "+=".
    sub = std::make_shared<ast::Word>();
    PartsBuilder sb(sub->parts);
    int depth = 0;
    bool found = false;
    size_t pi = 0;
    size_t start = n + 1;
    for (; pi < t.word.parts.size() && !found; ++pi) {
      auto* l = std::get_if<ast::Literal>(&t.word.parts[pi].v);
      if (!l || (l->quoted && pi > 0)) {
        if (pi == 0) return false;
        sb.push(std::move(t.word.parts[pi]));
        continue;
      }
      size_t k = pi == 0 ? start : 0;
      for (; k < l->text.size(); ++k) {
        char c = l->text[k];
        if (c == '[') ++depth;
        if (c == ']' && depth-- == 0) {
          std::string_view after = std::string_view(l->text).substr(k + 1);
          if (after.rfind("+=", 0) == 0) { append = true; after.remove_prefix(2); }
          else if (after.rfind("=", 0) == 0) { after.remove_prefix(1); }
          else return false;
          sb.flush();
          if (!after.empty()) rest.push_back(ast::WordPart{ast::Literal{std::string(after), false}});
          found = true;
          break;
        }
        sb.add(c, false);
      }
    }
    if (!found) return false;
    for (; pi < t.word.parts.size(); ++pi) rest.push_back(std::move(t.word.parts[pi]));
  } else {
    std::string_view after = std::string_view(text).substr(n);
    if (after.rfind("+=", 0) == 0) { append = true; after.remove_prefix(2); }
    else if (after.rfind("=", 0) == 0) { after.remove_prefix(1); }
    else return false;
    bool compound = after.empty() && t.word.parts.size() == 1 && rd_.peek() == '(';
    if (!append && !compound) return false;  // the POSIX path handles it
    if (!after.empty()) rest.push_back(ast::WordPart{ast::Literal{std::string(after), false}});
    for (size_t pi = 1; pi < t.word.parts.size(); ++pi) rest.push_back(std::move(t.word.parts[pi]));
  }
  a.name = text.substr(0, n);
  a.subscript = std::move(sub);
  a.append = append;
  a.range = t.word.range;
  bool compound = rest.empty() && !a.subscript && rd_.peek() == '(';
  a.value.parts = std::move(rest);
  a.value.range = t.word.range;
  apply_tilde(a.value, true);
  t.word.parts.clear();
  consume();
  if (compound) {
    a.compound = true;
    compound_elements(a);
  }
  return true;
}

// After name=: '(' words ')', newlines and comments allowed between words.
void ParserImpl::compound_elements(ast::Assignment& a) {
  Pos start = rd_.pos();
  rd_.get();  // (
  for (;;) {
    Token& t = peek();
    if (t.kind == Tok::newline) {
      consume();
      continue;
    }
    if (t.kind == Tok::rparen) {
      consume();
      return;
    }
    if (t.kind == Tok::eof) fail(start, "unterminated array assignment", true);
    if (t.kind != Tok::word) unexpected(t, "')'");
    ast::Assignment::Element e;
    // [key]=value
    auto* lit = t.word.parts.empty() ? nullptr : std::get_if<ast::Literal>(&t.word.parts[0].v);
    if (lit && !lit->quoted && !lit->text.empty() && lit->text[0] == '[') {
      // Reuse the subscript splitter with a dummy name.
      lit->text.insert(0, "x");
      ast::Assignment tmp;
      Token copy;
      copy.kind = Tok::word;
      copy.word = std::move(t.word);
      t.word.parts.clear();
      // ext_assignment consumes the token: do the split by hand on a copy.
      have_tok_ = true;
      tok_.word = std::move(copy.word);
      if (ext_assignment(tok_, tmp) && tmp.subscript) {
        e.key = tmp.subscript;
        e.value = std::move(tmp.value);
        a.elements.push_back(std::move(e));
        continue;
      }
      // Not [k]=v after all: put the text back.
      auto* l2 = tok_.word.parts.empty() ? nullptr : std::get_if<ast::Literal>(&tok_.word.parts[0].v);
      if (l2 && !l2->text.empty()) l2->text.erase(0, 1);
    }
    e.value = take_word(peek());
    consume();
    a.elements.push_back(std::move(e));
  }
}

}  // namespace lash::syntax::detail
