// The parser's internal state, shared by lexer.cpp (tokens, aliases), words.cpp
// (quoting and expansions inside words), heredoc.cpp, parser.cpp (grammar) and
// diagnostics.cpp (errors). Internal to src/syntax.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.h"
#include "syntax/parser.h"
#include "syntax/reader.h"

namespace lash::syntax::detail {

enum class Tok : uint8_t {
  eof, newline, word, io_number,
  and_if, or_if, dsemi, semi_and, dsemi_and, pipe, amp, semi,
  less, great, dgreat, clobber, lessgreat, lessand, greatand, dless, dlessdash, and_great,
  and_dgreat, tless, pipe_amp,
  lparen, rparen,
};

struct Token {
  Tok kind = Tok::eof;
  Pos begin;
  uint32_t end = 0;
  // word: the parsed word. plain: a single unquoted literal without expansions
  // (the only kind of word that can be a reserved word, alias or function name).
  ast::Word word;
  bool plain = false;
  bool alias_check = false;  // follows an alias whose text ended in a blank
  Reader::Mark bang_mark;     // a word starting "!(": where it began (see pipeline)
  bool alias_tried = false;  // alias lookup already done for this token
  int io_number = -1;
  std::string io_var;  // {name} before < or > (bash's named descriptor); io_number -1
  std::string_view text() const;  // plain words only
};

// Thrown (internally only) after the error has been recorded in ParserImpl::err_.
struct ParseAbort {};

// Accumulates word parts, merging adjacent literal text of equal quotedness.
class PartsBuilder {
 public:
  explicit PartsBuilder(std::vector<ast::WordPart>& parts) : parts_(parts) {}
  void add(int c, bool quoted) {
    if (has_lit_ && lit_quoted_ != quoted) flush();
    has_lit_ = true;
    lit_quoted_ = quoted;
    lit_.push_back(static_cast<char>(c));
  }
  void add(std::string_view s, bool quoted) {
    if (has_lit_ && lit_quoted_ != quoted) flush();
    has_lit_ = true;
    lit_quoted_ = quoted;
    lit_.append(s);
  }
  // Makes sure a quoted literal exists even if empty ('' and "" count as words).
  void touch_quoted() {
    if (has_lit_ && lit_quoted_) return;
    flush();
    has_lit_ = true;
    lit_quoted_ = true;
  }
  void push(ast::WordPart&& p) {
    flush();
    parts_.push_back(std::move(p));
  }
  void flush() {
    if (!has_lit_) return;
    parts_.push_back(ast::WordPart{ast::Literal{std::move(lit_), lit_quoted_}});
    lit_.clear();
    has_lit_ = false;
  }

 private:
  std::vector<ast::WordPart>& parts_;
  std::string lit_;
  bool lit_quoted_ = false;
  bool has_lit_ = false;
};

// Where a word part is being read: decides which characters are special.
enum class Ctx : uint8_t {
  unquoted,   // plain word text
  dquote,     // inside "..."
  heredoc,    // unquoted here-document body (like "..." but '"' is not special)
  arith,      // inside $((...))
};

struct PendingHeredoc {
  ast::Redirect* redirect;
  std::string delim;
  bool strip_tabs;
  bool quoted;
  Pos op_pos;
};

class ParserImpl {
 public:
  // text: what this parser reads. root: the whole text given to the public API
  // (differs for the bodies of backquoted substitutions, which are parsed by a
  // nested ParserImpl over the unescaped text).
  ParserImpl(std::string_view text, const ParseOptions& opts, std::string_view root,
             uint32_t base_off, uint32_t first_line);

  // One complete command, or null at end of input. Throws ParseAbort.
  ast::ListPtr complete_command();
  bool complete_command_into(ast::List& list);
  // Everything; used by parse() and for backquote bodies.
  ast::ListPtr program();

  SyntaxError err_;
  bool text_complete_ = false;  // end of text is the true end of input
  bool nested_ = false;         // parsing a backquote body: errors are never incomplete
  int depth_ = 0;
  const char* stack_base_ = nullptr;
  Reader rd_;

  // ---- lexer.cpp --------------------------------------------------------------
  Token& peek();
  enum : unsigned { kKeywords = 1, kAliases = 2 };
  // peek() with reserved-word priority and/or alias substitution applied.
  Token& peek_word(unsigned flags);
  Token& peek_cmd() { return peek_word(kKeywords | kAliases); }
  void consume();  // drops the peeked token; a newline also reads pending here-docs
  void lex_token();
  void lex_word(Token& t);
  bool try_alias(Token& t);
  uint32_t last_end_ = 0;
  bool no_bang_group_ = false;  // lex a leading "!(" as '!' then '('

  // ---- words.cpp --------------------------------------------------------------
  void single_quoted(PartsBuilder& b);
  void ansi_c_quoted(PartsBuilder& b);
  ast::DoubleQuoted double_quoted();
  void backslash(PartsBuilder& b, Ctx ctx, bool in_param);
  void dollar(PartsBuilder& b, Ctx ctx);
  void braced_param(PartsBuilder& b, Ctx ctx, Pos start);
  void param_arg(ast::Word& arg, Ctx ctx, Pos start);
  // param_arg that also stops at any character of STOPS (consumed); returns it.
  int param_word(ast::Word& arg, Ctx ctx, Pos start, std::string_view stops);
  void subscript_word(ast::Word& w, Pos start);  // after '[': up to the matching ']'
  void command_subst(PartsBuilder& b, Pos start, char process = 0);
  void arithmetic(PartsBuilder& b, Pos start);
  void backquote(PartsBuilder& b, Ctx ctx);
  bool looks_like_arith() const;
  [[noreturn]] void nul_byte();

  // ---- heredoc.cpp ------------------------------------------------------------
  void heredoc_redirect(ast::Redirect& r);  // after << / <<-: reads the delimiter
  void register_heredocs(std::vector<ast::Redirect>& rs);
  void read_heredocs();
  void finish_heredocs_at_eof();
  void give_empty_bodies();
  std::vector<PendingHeredoc> pending_;

  // ---- parser.cpp (grammar) ---------------------------------------------------
  ast::ListPtr compound_list();
  ast::AndOr and_or();
  ast::Pipeline pipeline();
  ast::Command command();
  ast::Command simple_command();
  ast::Command function_definition(std::string name, Pos begin);
  ast::Command brace_group();
  ast::Command subshell();
  ast::Command if_clause();
  ast::Command loop_clause(bool until);
  ast::Command for_clause();
  ast::Command case_clause();
  // Extensions (parser_ext.cpp).
  bool at_double_paren();          // after a peeked '(' token: "((" starts arithmetic
  ast::Word arith_until_close();   // reads up to the matching "))"
  ast::Command arith_command();
  ast::Command arith_for();
  ast::Command cond_command();
  ast::CondNode cond_or();
  ast::CondNode cond_and();
  ast::CondNode cond_not();
  ast::CondNode cond_primary();
  ast::Word cond_regex_word();
  // name[sub]=, name+=, name=( ... ): fills A and consumes the token when T is one.
  bool ext_assignment(Token& t, ast::Assignment& a);
  void compound_elements(ast::Assignment& a);
  ast::ListPtr do_group();
  void redirect_list(std::vector<ast::Redirect>& rs);
  ast::Redirect io_redirect();
  void linebreak();
  void expect_keyword(std::string_view kw);
  ast::ListPtr nonempty_list(std::string_view expecting);
  ast::Word take_word(Token& t);
  ast::SourceRange range_from(Pos begin) const;

  // ---- diagnostics.cpp --------------------------------------------------------
  [[noreturn]] void fail(Pos at, std::string message, bool incomplete = false);
  [[noreturn]] void unexpected(const Token& t, std::string_view expecting = {});
  std::string describe(const Token& t) const;
  // The source text between two offsets, without line continuations ("" when it
  // cannot be recovered, e.g. inside alias text).
  std::string source_text(uint32_t from, uint32_t to) const;
  // Recursion guard: counts nesting against max_depth and watches stack use.
  struct Nest {
    Nest(ParserImpl& p, Pos at);
    ~Nest() { --p_.depth_; }
    ParserImpl& p_;
  };

  const ParseOptions& opts_;
  std::string_view text_;
  std::string_view root_;
  uint32_t base_off_;
  Token tok_;
  bool have_tok_ = false;
  uint32_t alias_count_ = 0;  // substitutions in the current complete command
};

bool is_reserved_word(std::string_view w);
// Tilde prefixes (POSIX 2.6.1): at the start of a word, or for an assignment value
// also after each unquoted ':'.
void apply_tilde(ast::Word& w, bool assignment);

}  // namespace lash::syntax::detail
