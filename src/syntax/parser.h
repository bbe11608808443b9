// The shell parser: text in, AST or a located syntax error out. No I/O, no
// execution. Functions in parser.cpp are named after the POSIX grammar productions.
//
// Where POSIX leaves room it follows dash, except where noted:
// - `f() cmd`: any command may be a function body (FunctionDef::body).
// - Malformed ${...} parse; expanding one is the error (see ast::Parameter).
// - `$((` starts arithmetic unless the parenthesis closing "$((" is not followed by
//   a second ')': then it is $( (subshell)...) (bash's rule; dash always means
//   arithmetic).
// - `;&` (case fall-through) and `&>` (stdout+stderr) are accepted.
// - One `!` per pipeline, none after '|' (as dash).
// - Backquote bodies are parsed, and their syntax errors reported, at parse time.
// - NUL bytes are a syntax error ("NUL byte in input").
// A Parser keeps a view of its text, which must outlive it. The AST owns its
// strings; its SourceRanges are byte offsets into that text.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "syntax/ast.h"

namespace lash::syntax {

struct ParseOptions {
  std::string filename = "lash";  // shown in errors: "FILE:LINE:COL: syntax error: ..."
  uint32_t first_line = 1;        // line number of the first byte of the text
  // Limits that keep hostile input from exhausting the stack or memory.
  // Nesting of compound commands / substitutions. Deeper input is the error
  // "nesting too deep (limit N)"; independently the parser stops with "nesting too
  // deep (out of stack)" when it has used max_stack_bytes below its entry point
  // (optimized builds need about 1.5 KB per level; sanitizer builds far more).
  uint32_t max_depth = 1000;
  // The stack the parser may use below its entry point (the "out of stack" limit
  // above). The interpreter lowers it to what is left under the stack limit in force
  // (`ulimit -s`), which can be far less than 4 MB.
  size_t max_stack_bytes = size_t{4} << 20;
  size_t max_heredoc_bytes = 16u << 20;   // one here-document body
  // Alias lookup for the command word (POSIX 2.3.1). Returns the replacement text or
  // nullptr. May be empty. An alias ending in a blank makes the next word eligible too.
  std::function<const std::string*(std::string_view)> alias;
  // Parser::next() only (parse() always behaves as if true): the end of the text is
  // the true end of input, so a here-document without its delimiter line takes
  // the body up to the end (as dash does) and a trailing backslash-newline is
  // ignored. When false (a line-fed reader that may supply more text), both are
  // reported as incomplete errors: "unterminated here-document (expecting 'EOF')",
  // "unexpected end of file after line continuation".
  bool text_is_complete = false;
  // Bash's extensions to the grammar ([[ ]], (( )), for ((;;)), name=(...), a[i]=,
  // <<<, |&, &>>, $'...', {a,b}). Off in posix mode: the text means what it means
  // to dash.
  bool extensions = true;
};

struct SyntaxError {
  std::string message;       // e.g. "unexpected 'fi'", "unterminated quoted string"
  std::string filename;
  uint32_t line = 0;         // 1-based (already offset by first_line)
  uint32_t column = 0;       // 1-based, in bytes
  uint32_t offset = 0;       // byte offset into the text
  // True when the text ended inside a construct (open quote, unterminated if/case/
  // here-document, trailing | && ||): an interactive or line-fed reader should read
  // more and try again rather than report the error.
  bool incomplete = false;

  // "FILE:LINE:COL: syntax error: MESSAGE"
  std::string render() const;
};

// Parses complete commands one at a time, as a shell must: commands on earlier
// lines run before later lines are parsed (so aliases defined by one line apply to
// the next, and a syntax error on line 10 does not stop lines 1-9).
class Parser {
 public:
  Parser(std::string_view text, ParseOptions options);
  ~Parser();
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  struct Item {
    enum class Kind { command, end, error } kind = Kind::end;
    ast::ListPtr command;   // kind == command: one complete_command (a list, maybe empty)
    SyntaxError error;      // kind == error
  };
  // Next complete command: everything up to and including the next unnested newline
  // (and any here-document bodies that follow it). After an error, parsing does not
  // continue (next() keeps returning the error). Empty and comment-only lines are
  // skipped: a returned command always has at least one item; Kind::end at the end
  // of the text.
  // Here-documents whose body runs into the end of the text: see
  // ParseOptions::text_is_complete.
  Item next();

  // Byte offset of the first byte not consumed yet.
  size_t offset() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Parses the whole text (for eval, `.`, command substitution bodies, tests).
struct ParseResult {
  ast::ListPtr program;               // set on success
  std::optional<SyntaxError> error;   // set on failure
};
ParseResult parse(std::string_view text, const ParseOptions& options);

// True if `name` is a valid shell variable name ([A-Za-z_][A-Za-z0-9_]*).
bool is_name(std::string_view name);

}  // namespace lash::syntax
