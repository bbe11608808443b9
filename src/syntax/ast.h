// The shell's abstract syntax tree. Pure data: the parser builds it, the
// interpreter, `lash -n --dump-ast`, `profile test` and highlighting read it.
// Every node carries the byte range of its source text and its first line.
//
// Words are kept structured (literal / quoted / parameter / substitution parts) so
// the expander never re-lexes text at run time.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace lash::ast {

struct SourceRange {
  uint32_t begin = 0;  // byte offset into the parsed text
  uint32_t end = 0;    // one past the last byte
  uint32_t line = 0;   // 1-based line of `begin` (offset by ParseOptions::first_line)
};

struct Word;
struct List;
using WordPtr = std::unique_ptr<Word>;
// Shared so that function definitions can outlive the text they came from and be
// stored in the function table without copying.
using ListPtr = std::shared_ptr<List>;

// ---- word parts -------------------------------------------------------------

// Literal text. `quoted` is true for text that came from '...', from a backslash
// escape, or from inside "..." (quoted text is never field-split or globbed and its
// glob characters match themselves).
struct Literal {
  std::string text;
  bool quoted = false;
};

// "...": the parts inside double quotes. Parameter expansions and substitutions
// inside are expanded but not field-split or globbed.
struct WordPart;
struct DoubleQuoted {
  std::vector<WordPart> parts;
};

enum class ParamOp : uint8_t {
  plain,          // $x ${x}
  length,         // ${#x}
  use_default,    // ${x-w}  ${x:-w}
  assign_default, // ${x=w}  ${x:=w}
  error_if_unset, // ${x?w}  ${x:?w}
  use_alternate,  // ${x+w}  ${x:+w}
  remove_small_suffix,  // ${x%p}
  remove_large_suffix,  // ${x%%p}
  remove_small_prefix,  // ${x#p}
  remove_large_prefix,  // ${x##p}
  // Extensions (bash):
  substring,      // ${x:off} ${x:off:len}   arg = offset, arg2 = length (may be null)
  replace_first,  // ${x/p/r}                arg = pattern, arg2 = replacement
  replace_all,    // ${x//p/r}
  replace_prefix, // ${x/#p/r}
  replace_suffix, // ${x/%p/r}
  upper_first,    // ${x^p}
  upper_all,      // ${x^^p}
  lower_first,    // ${x,p}
  lower_all,      // ${x,,p}
  toggle_first,   // ${x~p}
  toggle_all,     // ${x~~p}
  names_prefix,   // ${!prefix*} ${!prefix@}  (star: name ends in '*')
  keys,           // ${!a[@]} ${!a[*]}
};

// $name ${name...} $1 ${10} $@ $* $# $? $- $$ $! $0
struct Parameter {
  std::string name;        // "x", "1", "10", "@", "*", "#", "?", "-", "$", "!", "0"
  // Any other name ("a.b", "BASH_SOURCE[0]", "x:1", "" for ${}) marks a malformed
  // ${...}: the text between the braces, op plain. Like dash, that is not a syntax
  // error; expanding it is ("bad substitution"), so unexecuted branches are harmless.
  ParamOp op = ParamOp::plain;
  bool colon = false;      // the ':' forms: also treat empty as unset
  WordPtr arg;             // the word after the operator (may be null for plain/length)
  // Extensions: ${name[index]} (index "@" / "*" for all elements), ${!name}.
  std::shared_ptr<Word> index;
  bool indirect = false;
  bool star = false;       // names_prefix: ${!p*} rather than ${!p@}
  std::shared_ptr<Word> arg2;
};

// $(...) or `...`. The body is parsed at parse time.
struct CommandSubst {
  ListPtr body;            // may be empty (no commands)
  bool backquoted = false;
  // bash's process substitution: '<' for <(list), '>' for >(list); 0 for $(list).
  // The word becomes a /dev/fd/N name of a pipe to or from the list.
  char process = 0;
};

// $((...)): the expression is a word (parameters and substitutions are expanded
// first, then the resulting text is evaluated as arithmetic).
struct Arithmetic {
  WordPtr expr;
};

// ~ or ~user at the start of a word (or after '=' / ':' in an assignment value).
struct Tilde {
  std::string user;        // empty for plain ~
};

struct WordPart {
  std::variant<Literal, DoubleQuoted, Parameter, CommandSubst, Arithmetic, Tilde> v;
};

struct Assignment;
struct Word {
  std::vector<WordPart> parts;
  SourceRange range;
  // `declare a=(...)`, `local -a a=(...)`: an argument of a declaration utility that
  // is an array assignment (extension). parts is empty then.
  std::shared_ptr<const Assignment> compound;
};

// ---- commands ------------------------------------------------------------------

enum class RedirOp : uint8_t {
  in,            // <
  out,           // >
  append,        // >>
  clobber,       // >|
  read_write,    // <>
  dup_in,        // <&
  dup_out,       // >&   (also n>&m, n>&-)
  heredoc,       // <<
  heredoc_strip, // <<-
  out_err,       // &>   (extension: stdout and stderr to a file)
  append_err,    // &>>  (extension: stdout and stderr appended to a file)
  herestring,    // <<<  (extension: the expanded word and a newline on stdin)
};

struct Redirect {
  int fd = -1;             // explicit io_number, or -1 for the operator's default
  // bash's {name}>file, {name}<&N, {name}>&-: the shell picks a free fd >= 10 and
  // stores it in the variable (or closes the one it names). fd is then -1.
  std::string fd_var;
  RedirOp op = RedirOp::out;
  Word target;             // file name, fd number / '-', or here-doc delimiter as written
  // Here-documents only: the body, read after the end of the line. When the
  // delimiter was quoted the body is one quoted Literal (no expansion).
  Word heredoc_body;
  bool heredoc_quoted = false;
  SourceRange range;
};

struct Assignment {
  std::string name;
  Word value;              // may have no parts (x=)
  SourceRange range;
  // Extensions: name[subscript]=value, name+=value, name=(elements).
  std::shared_ptr<Word> subscript;
  bool append = false;
  bool compound = false;
  struct Element {
    std::shared_ptr<Word> key;  // [key]=value; null for a plain element
    Word value;
  };
  std::vector<Element> elements;
};

struct Command;
using CommandPtr = std::unique_ptr<Command>;

struct SimpleCommand {
  std::vector<Assignment> assignments;
  std::vector<Word> words;       // words[0] is the command name when present
  std::vector<Redirect> redirects;  // in source order
};

struct BraceGroup { ListPtr body; };
struct Subshell   { ListPtr body; };

struct IfClause {
  struct Branch { ListPtr condition; ListPtr body; };
  std::vector<Branch> branches;  // if + each elif
  ListPtr else_body;             // may be null
};

struct LoopClause {
  bool until = false;            // until instead of while
  ListPtr condition;
  ListPtr body;
};

struct ForClause {
  std::string var;
  bool has_in = false;           // false: iterate over "$@"
  std::vector<Word> words;
  ListPtr body;
};

struct CaseClause {
  struct Item {
    std::vector<Word> patterns;
    ListPtr body;                // may be null for an empty item
    bool fallthrough = false;    // terminated by ;& instead of ;;
    bool test_next = false;      // terminated by ;;& (bash): the next patterns are tested
    SourceRange range;
  };
  Word subject;
  std::vector<Item> items;
};

struct FunctionDef {
  std::string name;
  // The function body: a compound command (with its own redirects), or, as dash
  // allows (`f() echo hi`), a simple command.
  std::shared_ptr<Command> body;
};

// (( expr )): status 0 when the expression is non-zero (extension).
struct ArithCommand {
  Word expr;
};

// for (( init; cond; step )) (extension). Empty cond is true.
struct ArithFor {
  Word init, cond, step;
  ListPtr body;
};

// [[ ... ]] (extension): words are expanded without splitting or globbing.
struct CondNode {
  enum class Kind : uint8_t { word, unary, binary, negate, both, either };
  Kind kind = Kind::word;
  std::string op;                // unary "-f"..., binary "==" "=~" "<" "-eq"...
  std::vector<Word> words;       // word: 1, unary: 1, binary: 2
  std::vector<CondNode> kids;    // negate: 1, both/either: 2
};
struct CondCommand {
  CondNode root;
};

struct Command {
  std::variant<SimpleCommand, BraceGroup, Subshell, IfClause, LoopClause, ForClause,
               CaseClause, FunctionDef, ArithCommand, ArithFor, CondCommand>
      v;
  // Redirects applied to a compound command (empty for SimpleCommand, which keeps
  // its own in SimpleCommand::redirects, and for FunctionDef whose body holds them).
  std::vector<Redirect> redirects;
  SourceRange range;
};

struct Pipeline {
  bool bang = false;             // leading '!'
  std::vector<Command> commands; // at least one
  SourceRange range;
};

enum class AndOrOp : uint8_t { and_if, or_if };

struct AndOr {
  Pipeline first;
  std::vector<std::pair<AndOrOp, Pipeline>> rest;
  SourceRange range;
};

struct ListItem {
  AndOr and_or;
  bool background = false;       // terminated by '&'
};

struct List {
  std::vector<ListItem> items;
  SourceRange range;
};

// A whole program is a list; the parser can also hand out one complete command
// (one line's worth of list) at a time.
using Program = List;

}  // namespace lash::ast
