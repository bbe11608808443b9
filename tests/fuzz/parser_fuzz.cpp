// libFuzzer target for the shell parser: parse(), Parser::next() and dump() must
// never crash, hang or break their invariants, whatever the bytes.
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
  if (r.program) {
    check(!lash::syntax::dump(*r.program).empty());
    check(r.program->range.end <= text.size());
  } else {
    check_error(*r.error, text);
  }

  Parser p(text, o);
  size_t last = 0;
  for (int i = 0; i < 100000; ++i) {
    Parser::Item item = p.next();
    if (item.kind == Parser::Item::Kind::end) break;
    if (item.kind == Parser::Item::Kind::error) {
      check_error(item.error, text);
      check(p.next().kind == Parser::Item::Kind::error);
      break;
    }
    check(item.command && !item.command->items.empty());
    check(p.offset() >= last && p.offset() <= text.size());
    last = p.offset();
    (void)lash::syntax::dump_line(*item.command);
  }
  return 0;
}
