// Here-documents: the delimiter word after << / <<-, and the bodies, which are read
// when the newline ending their line is consumed (several in order).
#include <string>

#include "syntax/charclass.h"
#include "syntax/parser_impl.h"

namespace lash::syntax::detail {

namespace {
bool delim_end(int c) {
  switch (c) {
    case kEof: case ' ': case '\t': case '\n':
    case ';': case '&': case '|': case '<': case '>': case '(': case ')':
      return true;
    default:
      return false;
  }
}

// Quote removal on the delimiter as written.
std::string unquote_delim(std::string_view raw) {
  std::string out;
  size_t i = 0;
  while (i < raw.size()) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      out.push_back(raw[i + 1]);
      i += 2;
    } else if (c == '\'') {
      size_t j = raw.find('\'', i + 1);
      if (j == std::string_view::npos) j = raw.size();
      out.append(raw.substr(i + 1, j - i - 1));
      i = j + 1;
    } else if (c == '"') {
      ++i;
      while (i < raw.size() && raw[i] != '"') {
        char d = i + 1 < raw.size() ? raw[i + 1] : 0;
        if (raw[i] == '\\' && (d == '$' || d == '`' || d == '"' || d == '\\')) {
          out.push_back(d);
          i += 2;
        } else {
          out.push_back(raw[i++]);
        }
      }
      ++i;
    } else {
      out.push_back(c);
      ++i;
    }
  }
  return out;
}
}  // namespace

// After "<<" or "<<-": the delimiter word. Its text is kept as written (minus line
// continuations) in r.target; quote removal happens in register_heredocs().
void ParserImpl::heredoc_redirect(ast::Redirect& r) {
  int c;
  while ((c = rd_.peek()) == ' ' || c == '\t') rd_.get();
  Pos begin = rd_.pos();
  std::string raw;
  bool quoted = false;
  // Like any word, the delimiter cannot start with '#' (that begins a comment).
  for (bool first = true;; first = false) {
    c = rd_.peek();
    if (delim_end(c) || (first && c == '#')) break;
    if (c == 0) nul_byte();
    rd_.get();
    raw.push_back(static_cast<char>(c));
    if (c == '\\') {
      quoted = true;
      int d = rd_.get_raw();
      if (d == kEof) break;
      if (d == 0) nul_byte();
      raw.push_back(static_cast<char>(d));
    } else if (c == '\'' || c == '"') {
      quoted = true;
      for (;;) {
        int d = c == '\'' ? rd_.get_raw() : rd_.get();
        if (d == kEof) fail(begin, "unterminated quoted string", true);
        if (d == 0) nul_byte();
        raw.push_back(static_cast<char>(d));
        if (d == c) break;
        if (c == '"' && d == '\\') {
          int e = rd_.get_raw();
          if (e == kEof) fail(begin, "unterminated quoted string", true);
          if (e == 0) nul_byte();
          raw.push_back(static_cast<char>(e));
        }
      }
    }
  }
  if (raw.empty()) unexpected(peek(), "here-document delimiter");
  c = rd_.peek();
  if (!quoted && (c == '<' || c == '>') &&
      raw.find_first_not_of("0123456789") == std::string::npos)  // an io_number
    fail(begin, "unexpected redirection (expecting here-document delimiter)");
  r.target.parts.clear();
  r.target.parts.push_back(ast::WordPart{ast::Literal{std::move(raw), false}});
  r.target.range = {begin.off, rd_.end_off(), begin.line};
  r.heredoc_quoted = quoted;
  last_end_ = rd_.end_off();
}

void ParserImpl::register_heredocs(std::vector<ast::Redirect>& rs) {
  for (ast::Redirect& r : rs) {
    if (r.op != ast::RedirOp::heredoc && r.op != ast::RedirOp::heredoc_strip) continue;
    const auto& raw = std::get<ast::Literal>(r.target.parts.at(0).v).text;
    pending_.push_back(PendingHeredoc{&r, unquote_delim(raw), r.op == ast::RedirOp::heredoc_strip,
                                      r.heredoc_quoted, Pos{r.range.begin, r.range.line}});
  }
}

void ParserImpl::finish_heredocs_at_eof() {
  if (pending_.empty()) return;
  if (!text_complete_) {
    const PendingHeredoc& h = pending_.front();
    fail(h.op_pos, "unterminated here-document (expecting '" + h.delim + "')", true);
  }
  give_empty_bodies();
}

void ParserImpl::give_empty_bodies() {
  for (PendingHeredoc& h : pending_) {
    ast::Redirect& r = *h.redirect;
    r.heredoc_body.parts.clear();
    if (h.quoted) r.heredoc_body.parts.push_back(ast::WordPart{ast::Literal{{}, true}});
  }
  pending_.clear();
}

void ParserImpl::read_heredocs() {
  std::vector<PendingHeredoc> list;
  list.swap(pending_);  // bodies may contain $(...) with here-documents of their own
  for (PendingHeredoc& h : list) {
    ast::Redirect& r = *h.redirect;
    ast::Word& body = r.heredoc_body;
    body.parts.clear();
    Pos begin = rd_.pos();
    size_t start = rd_.main_offset();
    auto check_size = [&](size_t extra) {
      if (rd_.main_offset() - start + extra > opts_.max_heredoc_bytes)
        fail(h.op_pos, "here-document too large");
    };
    auto at_eof = [&]() {
      if (!text_complete_)
        fail(h.op_pos, "unterminated here-document (expecting '" + h.delim + "')", true);
    };
    // At the start of a line: strips tabs for <<-; true if the line is the
    // delimiter (which is then consumed).
    auto delimiter_line = [&]() {
      if (h.strip_tabs)
        while (rd_.peek_raw() == '\t') rd_.get_raw();
      std::string_view line = rd_.peek_line();
      if (line != h.delim) return false;
      rd_.skip_raw_same_line(line.size());
      if (rd_.peek_raw() == '\n') rd_.get_raw();
      return true;
    };

    if (h.quoted) {
      std::string text;
      for (;;) {
        if (rd_.peek_raw() == kEof) {
          at_eof();
          break;
        }
        if (delimiter_line()) break;
        std::string_view line = rd_.peek_line();
        if (line.find('\0') != std::string_view::npos) {
          rd_.skip_raw_same_line(line.find('\0'));
          nul_byte();
        }
        check_size(line.size());
        text.append(line);
        rd_.skip_raw_same_line(line.size());
        if (rd_.peek_raw() == '\n') {
          text.push_back('\n');
          rd_.get_raw();
        }
      }
      body.parts.push_back(ast::WordPart{ast::Literal{std::move(text), true}});
    } else {
      PartsBuilder b(body.parts);
      bool line_start = true;
      for (;;) {
        if (line_start) {
          check_size(0);
          if (rd_.peek_raw() == kEof) {
            at_eof();
            break;
          }
          if (delimiter_line()) break;
          line_start = false;
        }
        int c = rd_.peek();
        if (c == kEof) {
          check_size(0);
          at_eof();
          break;
        }
        switch (c) {
          case '\n':
            b.add(rd_.get(), true);
            line_start = true;
            break;
          case '\\':
            backslash(b, Ctx::heredoc, false);
            break;
          case '$':
            dollar(b, Ctx::heredoc);
            break;
          case '`':
            backquote(b, Ctx::heredoc);
            break;
          case 0:
            nul_byte();
          default: {
            std::string_view rest = rd_.rest();
            size_t n = 0;
            while (n < rest.size() && !has_class(rest[n], kDocSpecial)) ++n;
            if (n == 0) {
              b.add(rd_.get(), true);
            } else {
              b.add(rest.substr(0, n), true);
              rd_.skip_raw_same_line(n);
            }
            break;
          }
        }
      }
      b.flush();
    }
    body.range = {begin.off, rd_.end_off(), begin.line};
  }
  // A here-document started in a body's substitution that closed on the same line
  // (cat <<A \n $(cat <<B) \n A) has no lines of its own: like dash, it is empty.
  // (Its command is part of this complete command, which the caller may free.)
  give_empty_bodies();
}

}  // namespace lash::syntax::detail
