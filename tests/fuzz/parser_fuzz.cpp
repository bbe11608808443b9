// libFuzzer target for the shell parser: parse(), Parser::next() and dump() must
// never crash, hang or break their invariants, whatever the bytes. Besides that,
// two round trips (without aliases, which depend on the order of parsing):
// - the whole-text parse (`lash -n --dump-ast`, `profile test`) and the
//   command-at-a-time parse (what a script runs) give the same tree, so the dry run
//   never inspects another program than the one that runs;
// - each top-level command's source text (its SourceRange), parsed again on its
//   own, dumps as that command did: the ranges that diagnostics and highlighting
//   show are the text of the command.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "syntax/ast_dump.h"
#include "syntax/parser.h"

namespace {

using lash::syntax::ParseOptions;
using lash::syntax::Parser;
using lash::syntax::SyntaxError;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

const std::string* lookup_alias(std::string_view name) {
  // A few aliases that exercise trailing blanks, recursion and keywords.
  static const std::map<std::string, std::string, std::less<>> table = {
      {"ll", "ls -l"}, {"sudo", "sudo "}, {"a", "b "}, {"b", "a "}, {"self", "self self"},
      {"begin", "{ "}, {"end", "; }"}, {"loop", "while :; do "}, {"cs", "case x in "},
      {"hd", "cat <<EOF"}, {"empty", ""}, {"nl", "echo 1\necho 2"}, {"sub", "$( "},
  };
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

void check_error(const SyntaxError& e, std::string_view text) {
  check(!e.message.empty());
  check(e.offset <= text.size());
  check(e.line >= 1 && e.column >= 1);
  check(!e.render().empty());
}

// The dump of ITEM alone (moved into a one-item list and back).
std::string dump_item(lash::ast::ListItem& item) {
  lash::ast::List one;
  one.items.push_back(std::move(item));
  one.items[0].background = false;  // '&' follows the and-or list, outside its range
  std::string out = lash::syntax::dump_line(one);
  item = std::move(one.items[0]);
  return out;
}

// Each top-level command's source text parses alone to the same tree. Here-document
// bodies lie after the line, outside the command's range, so such texts are skipped.
void check_ranges(lash::ast::List& program, std::string_view text, const ParseOptions& o) {
  if (text.find("<<") != std::string_view::npos) return;
  for (auto& item : program.items) {
    const auto& r = item.and_or.range;
    check(r.begin <= r.end && r.end <= text.size());
    bool bg = item.background;
    std::string want = dump_item(item);
    item.background = bg;
    lash::syntax::ParseResult again = lash::syntax::parse(text.substr(r.begin, r.end - r.begin), o);
    check(again.program != nullptr);
    check(again.program->items.size() == 1);
    check(dump_item(again.program->items[0]) == want);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte picks options; the rest is the script.
  uint8_t flags = size ? data[0] : 0;
  std::string_view text(reinterpret_cast<const char*>(data) + (size ? 1 : 0), size ? size - 1 : 0);
  ParseOptions o;
  o.filename = "fuzz";
  o.max_heredoc_bytes = 1 << 16;
  if (flags & 1) o.alias = lookup_alias;
  if (flags & 2) o.max_depth = 20;
  o.text_is_complete = (flags & 4) != 0;

  lash::syntax::ParseResult r = lash::syntax::parse(text, o);
  check((r.program != nullptr) != r.error.has_value());
  std::string whole;
  if (r.program) {
    whole = lash::syntax::dump(*r.program);
    check(!whole.empty());
    check(r.program->range.end <= text.size());
  } else {
    check_error(*r.error, text);
  }

  Parser p(text, o);
  size_t last = 0;
  bool next_failed = false;
  lash::ast::List joined;  // the commands next() gave, in one list
  for (int i = 0; i < 100000; ++i) {
    Parser::Item item = p.next();
    if (item.kind == Parser::Item::Kind::end) break;
    if (item.kind == Parser::Item::Kind::error) {
      check_error(item.error, text);
      check(p.next().kind == Parser::Item::Kind::error);
      next_failed = true;
      break;
    }
    check(item.command && !item.command->items.empty());
    check(p.offset() >= last && p.offset() <= text.size());
    last = p.offset();
    (void)lash::syntax::dump_line(*item.command);
    for (auto& it : item.command->items) joined.items.push_back(std::move(it));
  }

  // The round trips. parse() treats the text as complete; next() does so only with
  // text_is_complete; aliases make the two differ by design (an alias defined on
  // one line applies to the next only when run).
  if (o.alias || !o.text_is_complete) return 0;
  check(next_failed == !r.program);
  if (!r.program) return 0;
  check(lash::syntax::dump(joined) == whole);
  check_ranges(*r.program, text, o);
  return 0;
}
