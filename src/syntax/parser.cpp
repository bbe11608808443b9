// The grammar (POSIX XCU 2.10), one function per production, and the public API.
#include "syntax/parser.h"

#include <new>

#include "syntax/parser_impl.h"

namespace lash::syntax {
namespace detail {

namespace {
bool is_kw(const Token& t, std::string_view kw) {
  return t.kind == Tok::word && t.plain && t.text() == kw;
}

bool is_redirect_op(Tok k) {
  switch (k) {
    case Tok::less: case Tok::great: case Tok::dgreat: case Tok::clobber: case Tok::lessgreat:
    case Tok::lessand: case Tok::greatand: case Tok::dless: case Tok::dlessdash:
    case Tok::and_great: case Tok::and_dgreat: case Tok::tless:
      return true;
    default:
      return false;
  }
}

// Tokens (in command position) that end a compound_list.
bool ends_list(const Token& t) {
  switch (t.kind) {
    case Tok::eof: case Tok::rparen: case Tok::dsemi: case Tok::semi_and: case Tok::dsemi_and:
      return true;
    case Tok::word: {
      if (!t.plain) return false;
      std::string_view w = t.text();
      return w == "then" || w == "else" || w == "elif" || w == "fi" || w == "do" ||
             w == "done" || w == "esac" || w == "}";
    }
    default:
      return false;
  }
}

bool is_declaration_word(const ast::Word& w) {
  if (w.parts.size() != 1) return false;
  auto* l = std::get_if<ast::Literal>(&w.parts[0].v);
  return l && !l->quoted &&
         (l->text == "declare" || l->text == "typeset" || l->text == "local" || l->text == "readonly" ||
          l->text == "export");
}

bool is_assignment(const Token& t) {
  if (t.kind != Tok::word || t.word.parts.empty()) return false;
  auto* lit = std::get_if<ast::Literal>(&t.word.parts[0].v);
  if (!lit || lit->quoted) return false;
  size_t eq = lit->text.find('=');
  return eq != std::string::npos && eq > 0 && is_name(std::string_view(lit->text).substr(0, eq));
}
}  // namespace

ParserImpl::ParserImpl(std::string_view text, const ParseOptions& opts, std::string_view root,
                       uint32_t base_off, uint32_t first_line)
    : rd_(text, base_off, first_line), opts_(opts), text_(text), root_(root), base_off_(base_off) {
  last_end_ = base_off;
}

ast::SourceRange ParserImpl::range_from(Pos begin) const {
  return {begin.off, last_end_ > begin.off ? last_end_ : begin.off, begin.line};
}

ast::Word ParserImpl::take_word(Token& t) {
  ast::Word w = std::move(t.word);
  t.word.parts.clear();
  apply_tilde(w, false);
  return w;
}

void ParserImpl::linebreak() {
  while (peek().kind == Tok::newline) consume();
}

void ParserImpl::expect_keyword(std::string_view kw) {
  Token& t = peek_cmd();
  if (!is_kw(t, kw)) unexpected(t, "'" + std::string(kw) + "'");
  consume();
}

// complete_command: a list up to an unnested newline (or the end of the text).
ast::ListPtr ParserImpl::complete_command() {
  auto list = std::make_shared<ast::List>();
  if (!complete_command_into(*list)) return nullptr;
  return list;
}

// Appends the items of the next complete command to `list`; false at the end.
bool ParserImpl::complete_command_into(ast::List& list) {
  alias_count_ = 0;
  for (;;) {
    Token& t = peek_cmd();
    if (t.kind == Tok::newline) {
      consume();
      continue;
    }
    if (t.kind == Tok::eof) {
      finish_heredocs_at_eof();
      return false;
    }
    break;
  }
  Pos begin = peek().begin;
  for (;;) {
    ast::ListItem item;
    item.and_or = and_or();
    Token& t = peek();
    bool sep = false;
    if (t.kind == Tok::amp || t.kind == Tok::semi) {
      item.background = t.kind == Tok::amp;
      consume();
      sep = true;
    }
    list.items.push_back(std::move(item));
    Token& n = sep ? peek_cmd() : peek();
    if (n.kind == Tok::newline) {
      list.range = range_from(begin);
      consume();
      break;
    }
    if (n.kind == Tok::eof) {
      list.range = range_from(begin);
      finish_heredocs_at_eof();
      break;
    }
    if (!sep) unexpected(n);
  }
  return true;
}

ast::ListPtr ParserImpl::program() {
  auto prog = std::make_shared<ast::List>();
  ast::SourceRange whole = {base_off_, base_off_ + static_cast<uint32_t>(text_.size()), rd_.pos().line};
  while (complete_command_into(*prog)) {
  }
  prog->range = whole;
  return prog;
}

// compound_list (possibly empty): and_ors separated by ; & newline, up to a
// token that cannot start a command here (checked by the caller).
ast::ListPtr ParserImpl::compound_list() {
  auto list = std::make_shared<ast::List>();
  linebreak();
  Pos begin = peek_cmd().begin;
  for (;;) {
    Token& t = peek_cmd();
    if (ends_list(t)) break;
    ast::ListItem item;
    item.and_or = and_or();
    Token& s = peek();
    bool more = true;
    if (s.kind == Tok::amp || s.kind == Tok::semi) {
      item.background = s.kind == Tok::amp;
      consume();
    } else if (s.kind != Tok::newline) {
      more = false;
    }
    list->items.push_back(std::move(item));
    if (!more) break;
    linebreak();
  }
  list->range = range_from(begin);
  return list;
}

ast::ListPtr ParserImpl::nonempty_list(std::string_view expecting) {
  ast::ListPtr l = compound_list();
  // EXPECTING is the word that ends the list; an empty list lacks a command before it
  // (`if then` is "expecting a command before 'then'", not "expecting 'then'").
  if (l->items.empty()) unexpected(peek_cmd(), "a command before " + std::string(expecting));
  return l;
}

ast::AndOr ParserImpl::and_or() {
  ast::AndOr ao;
  Pos begin = peek_cmd().begin;
  ao.first = pipeline();
  for (;;) {
    Token& t = peek();
    if (t.kind != Tok::and_if && t.kind != Tok::or_if) break;
    ast::AndOrOp op = t.kind == Tok::and_if ? ast::AndOrOp::and_if : ast::AndOrOp::or_if;
    consume();
    linebreak();
    ao.rest.emplace_back(op, pipeline());
  }
  ao.range = range_from(begin);
  return ao;
}

ast::Pipeline ParserImpl::pipeline() {
  ast::Pipeline p;
  Token* tp = &peek_cmd();
  // bash reads "!(list)" in command position as '!' and a subshell, also under
  // extglob: re-read such a word from its start with the group form off.
  if (tp->kind == Tok::word && tp->bang_mark.p != nullptr && rd_.rewind(tp->bang_mark)) {
    have_tok_ = false;
    no_bang_group_ = true;
    tp = &peek_cmd();
  }
  Token& t = *tp;
  Pos begin = t.begin;
  if (is_kw(t, "!")) {
    p.bang = true;
    consume();
  }
  p.commands.push_back(command());
  while (peek().kind == Tok::pipe || peek().kind == Tok::pipe_amp) {
    if (peek().kind == Tok::pipe_amp) {
      // `a |& b` is `a 2>&1 | b`: the dup comes after a's own redirections.
      ast::Redirect r;
      r.fd = 2;
      r.op = ast::RedirOp::dup_out;
      r.target.parts.push_back(ast::WordPart{ast::Literal{"1", false}});
      r.range = {peek().begin.off, peek().end, peek().begin.line};
      ast::Command& last = p.commands.back();
      auto* sc = std::get_if<ast::SimpleCommand>(&last.v);
      std::vector<ast::Redirect>& list = sc ? sc->redirects : last.redirects;
      // A here-document of `a` still waiting for its body points into this list:
      // growing the list may move it, so those pointers are taken again after.
      std::vector<std::pair<PendingHeredoc*, size_t>> moved;
      for (PendingHeredoc& h : pending_)
        for (size_t i = 0; i < list.size(); ++i)
          if (h.redirect == &list[i]) moved.emplace_back(&h, i);
      list.push_back(std::move(r));
      for (auto& [h, i] : moved) h->redirect = &list[i];
    }
    consume();
    linebreak();
    p.commands.push_back(command());
  }
  p.range = range_from(begin);
  return p;
}

ast::Command ParserImpl::command() {
  Token& t = peek_cmd();
  Pos begin = t.begin;
  ast::Command c;
  if (t.kind == Tok::word && t.plain && is_reserved_word(t.text())) {
    std::string_view w = t.text();
    Nest nest(*this, begin);
    if (w == "{") c = brace_group();
    else if (w == "if") c = if_clause();
    else if (w == "while") c = loop_clause(false);
    else if (w == "until") c = loop_clause(true);
    else if (w == "for") c = for_clause();
    else if (w == "case") c = case_clause();
    else unexpected(t);
  } else if (t.kind == Tok::lparen && opts_.extensions && at_double_paren()) {
    Nest nest(*this, begin);
    c = arith_command();
  } else if (t.kind == Tok::word && t.plain && opts_.extensions && t.text() == "[[") {
    Nest nest(*this, begin);
    c = cond_command();
  } else if (t.kind == Tok::lparen) {
    Nest nest(*this, begin);
    c = subshell();
  } else if (t.kind == Tok::word || t.kind == Tok::io_number || is_redirect_op(t.kind)) {
    return simple_command();
  } else {
    unexpected(t);
  }
  redirect_list(c.redirects);
  register_heredocs(c.redirects);
  c.range = range_from(begin);
  return c;
}

ast::Command ParserImpl::simple_command() {
  Pos begin = peek().begin;
  ast::SimpleCommand sc;
  for (;;) {
    // Aliases apply up to the command name (and after an alias ending in a blank).
    Token& t = peek_word(sc.words.empty() ? unsigned{kAliases} : 0u);
    if (t.kind == Tok::word) {
      if (opts_.extensions && (sc.words.empty() || is_declaration_word(sc.words[0]))) {
        ast::Assignment a;
        if (ext_assignment(t, a)) {
          if (sc.words.empty()) {
            sc.assignments.push_back(std::move(a));
          } else {
            ast::Word w;
            w.range = a.range;
            w.compound = std::make_shared<ast::Assignment>(std::move(a));
            sc.words.push_back(std::move(w));
          }
          continue;
        }
      }
      if (sc.words.empty() && is_assignment(t)) {
        ast::Assignment a;
        a.range = t.word.range;
        auto& lit = std::get<ast::Literal>(t.word.parts[0].v);
        size_t eq = lit.text.find('=');
        a.name = lit.text.substr(0, eq);
        lit.text.erase(0, eq + 1);
        a.value.parts = std::move(t.word.parts);
        t.word.parts.clear();
        if (std::get<ast::Literal>(a.value.parts[0].v).text.empty())
          a.value.parts.erase(a.value.parts.begin());
        a.value.range = {std::min<uint32_t>(t.begin.off + static_cast<uint32_t>(eq) + 1, t.end),
                         t.end, t.begin.line};
        apply_tilde(a.value, true);
        consume();
        sc.assignments.push_back(std::move(a));
        continue;
      }
      bool first = sc.words.empty() && sc.assignments.empty() && sc.redirects.empty();
      if (first && t.plain) {
        std::string name(t.text());
        Pos wb = t.begin;
        ast::Word w = take_word(t);
        consume();
        if (peek().kind == Tok::lparen) return function_definition(std::move(name), wb);
        sc.words.push_back(std::move(w));
        continue;
      }
      sc.words.push_back(take_word(t));
      consume();
      continue;
    }
    if (t.kind == Tok::io_number || is_redirect_op(t.kind)) {
      sc.redirects.push_back(io_redirect());
      continue;
    }
    break;
  }
  if (sc.words.empty() && sc.assignments.empty() && sc.redirects.empty()) unexpected(peek());
  register_heredocs(sc.redirects);
  ast::Command c;
  c.v = std::move(sc);
  c.range = range_from(begin);
  return c;
}

// fname '(' ')' linebreak function_body. Like dash, the body may be any command.
ast::Command ParserImpl::function_definition(std::string name, Pos begin) {
  Nest nest(*this, begin);
  if (!is_name(name)) fail(begin, "bad function name '" + name + "'");
  consume();  // (
  Token& t = peek();
  if (t.kind != Tok::rparen) unexpected(t, "')'");
  consume();
  linebreak();
  ast::FunctionDef f;
  f.name = std::move(name);
  f.body = std::make_shared<ast::Command>(command());
  ast::Command c;
  c.v = std::move(f);
  c.range = range_from(begin);
  return c;
}

ast::Command ParserImpl::brace_group() {
  consume();  // {
  ast::BraceGroup g;
  g.body = nonempty_list("'}'");
  expect_keyword("}");
  ast::Command c;
  c.v = std::move(g);
  return c;
}

ast::Command ParserImpl::subshell() {
  consume();  // (
  ast::Subshell s;
  s.body = nonempty_list("')'");
  Token& t = peek_cmd();
  if (t.kind != Tok::rparen) unexpected(t, "')'");
  consume();
  ast::Command c;
  c.v = std::move(s);
  return c;
}

ast::Command ParserImpl::if_clause() {
  consume();  // if
  ast::IfClause ic;
  ast::IfClause::Branch first;
  first.condition = nonempty_list("'then'");
  expect_keyword("then");
  first.body = nonempty_list("'fi'");
  ic.branches.push_back(std::move(first));
  for (;;) {
    Token& t = peek_cmd();
    if (is_kw(t, "elif")) {
      consume();
      ast::IfClause::Branch b;
      b.condition = nonempty_list("'then'");
      expect_keyword("then");
      b.body = nonempty_list("'fi'");
      ic.branches.push_back(std::move(b));
    } else if (is_kw(t, "else")) {
      consume();
      ic.else_body = nonempty_list("'fi'");
      expect_keyword("fi");
      break;
    } else if (is_kw(t, "fi")) {
      consume();
      break;
    } else {
      unexpected(t, "'fi'");
    }
  }
  ast::Command c;
  c.v = std::move(ic);
  return c;
}

ast::ListPtr ParserImpl::do_group() {
  expect_keyword("do");
  ast::ListPtr body = nonempty_list("'done'");
  expect_keyword("done");
  return body;
}

ast::Command ParserImpl::loop_clause(bool until) {
  consume();  // while / until
  ast::LoopClause lc;
  lc.until = until;
  lc.condition = nonempty_list("'do'");
  lc.body = do_group();
  ast::Command c;
  c.v = std::move(lc);
  return c;
}

ast::Command ParserImpl::for_clause() {
  consume();  // for
  if (opts_.extensions && peek().kind == Tok::lparen && at_double_paren()) return arith_for();
  ast::ForClause fc;
  {
    Token& t = peek();
    if (t.kind != Tok::word) unexpected(t, "a name");
    if (!t.plain || !is_name(t.text())) fail(t.begin, "bad for loop variable");
    fc.var = std::string(t.text());
    consume();
  }
  if (peek().kind == Tok::semi) {
    consume();
    linebreak();
  } else {
    linebreak();
    if (is_kw(peek(), "in")) {
      consume();
      fc.has_in = true;
      for (;;) {
        Token& w = peek();
        if (w.kind != Tok::word) break;
        fc.words.push_back(take_word(w));
        consume();
      }
      Token& s = peek();
      if (s.kind == Tok::semi) {
        consume();
        linebreak();
      } else if (s.kind == Tok::newline) {
        linebreak();
      } else {
        unexpected(s, "'do'");
      }
    }
  }
  fc.body = do_group();
  ast::Command c;
  c.v = std::move(fc);
  return c;
}

ast::Command ParserImpl::case_clause() {
  consume();  // case
  ast::CaseClause cc;
  {
    Token& t = peek();
    if (t.kind != Tok::word) unexpected(t, "a word");
    cc.subject = take_word(t);
    consume();
  }
  linebreak();
  if (!is_kw(peek(), "in")) unexpected(peek(), "'in'");
  consume();
  linebreak();
  for (;;) {
    Token& t = peek();
    if (is_kw(t, "esac")) {
      consume();
      break;
    }
    ast::CaseClause::Item item;
    Pos ib = t.begin;
    if (t.kind == Tok::lparen) consume();
    for (;;) {
      Token& p = peek();
      if (p.kind != Tok::word) unexpected(p, item.patterns.empty() ? "'esac'" : "a pattern");
      item.patterns.push_back(take_word(p));
      consume();
      Token& s = peek();
      if (s.kind == Tok::pipe) {
        consume();
        continue;
      }
      if (s.kind == Tok::rparen) {
        consume();
        break;
      }
      unexpected(s, "')'");
    }
    ast::ListPtr body = compound_list();
    if (!body->items.empty()) item.body = std::move(body);
    Token& e = peek_cmd();
    if (e.kind == Tok::dsemi || e.kind == Tok::semi_and || e.kind == Tok::dsemi_and) {
      item.fallthrough = e.kind == Tok::semi_and;
      item.test_next = e.kind == Tok::dsemi_and;
      consume();
      item.range = range_from(ib);
      cc.items.push_back(std::move(item));
      linebreak();
      continue;
    }
    if (!is_kw(e, "esac")) unexpected(e, "';;'");
    item.range = range_from(ib);
    cc.items.push_back(std::move(item));
    consume();
    break;
  }
  ast::Command c;
  c.v = std::move(cc);
  return c;
}

void ParserImpl::redirect_list(std::vector<ast::Redirect>& rs) {
  for (;;) {
    Tok k = peek().kind;
    if (k != Tok::io_number && !is_redirect_op(k)) return;
    rs.push_back(io_redirect());
  }
}

ast::Redirect ParserImpl::io_redirect() {
  ast::Redirect r;
  Pos begin = peek().begin;
  if (peek().kind == Tok::io_number) {
    r.fd = peek().io_number;
    r.fd_var = peek().io_var;
    consume();
  }
  switch (peek().kind) {
    case Tok::less: r.op = ast::RedirOp::in; break;
    case Tok::great: r.op = ast::RedirOp::out; break;
    case Tok::dgreat: r.op = ast::RedirOp::append; break;
    case Tok::clobber: r.op = ast::RedirOp::clobber; break;
    case Tok::lessgreat: r.op = ast::RedirOp::read_write; break;
    case Tok::lessand: r.op = ast::RedirOp::dup_in; break;
    case Tok::greatand: r.op = ast::RedirOp::dup_out; break;
    case Tok::dless: r.op = ast::RedirOp::heredoc; break;
    case Tok::dlessdash: r.op = ast::RedirOp::heredoc_strip; break;
    case Tok::and_great: r.op = ast::RedirOp::out_err; break;
    case Tok::and_dgreat: r.op = ast::RedirOp::append_err; break;
    case Tok::tless: r.op = ast::RedirOp::herestring; break;
    default: unexpected(peek());
  }
  consume();
  if (r.op == ast::RedirOp::heredoc || r.op == ast::RedirOp::heredoc_strip) {
    heredoc_redirect(r);
  } else {
    Token& w = peek();
    if (w.kind != Tok::word) unexpected(w, "a word");
    r.target = take_word(w);
    consume();
  }
  r.range = range_from(begin);
  return r;
}

}  // namespace detail

// ---- public API ----------------------------------------------------------------

struct Parser::Impl {
  Impl(std::string_view text, ParseOptions o) : opts(std::move(o)), p(text, opts, text, 0, opts.first_line) {
    p.text_complete_ = opts.text_is_complete;
  }
  ParseOptions opts;
  detail::ParserImpl p;
  bool done = false;
  bool failed = false;
};

Parser::Parser(std::string_view text, ParseOptions options)
    : impl_(std::make_unique<Impl>(text, std::move(options))) {}
Parser::~Parser() = default;

Parser::Item Parser::next() {
  Item item;
  if (impl_->failed) {
    item.kind = Item::Kind::error;
    item.error = impl_->p.err_;
    return item;
  }
  if (impl_->done) return item;
  detail::ParserImpl& p = impl_->p;
  p.stack_base_ = static_cast<const char*>(__builtin_frame_address(0));
  p.depth_ = 0;
  try {
    item.command = p.complete_command();
    if (item.command) {
      item.kind = Item::Kind::command;
    } else {
      impl_->done = true;
    }
  } catch (const detail::ParseAbort&) {
    impl_->failed = true;
    item.kind = Item::Kind::error;
    item.error = p.err_;
  }
  return item;
}

size_t Parser::offset() const { return impl_->p.rd_.main_offset(); }

ParseResult parse(std::string_view text, const ParseOptions& options) {
  ParseResult r;
  detail::ParserImpl p(text, options, text, 0, options.first_line);
  p.text_complete_ = true;
  p.stack_base_ = static_cast<const char*>(__builtin_frame_address(0));
  try {
    r.program = p.program();
  } catch (const detail::ParseAbort&) {
    r.error = p.err_;
  }
  return r;
}

}  // namespace lash::syntax
