#include "helpers.h"

#include <doctest/doctest.h>

#include <memory>

namespace lash::syntax::test {

ast::ListPtr parse_ok(std::string_view text, ParseOptions opts) {
  opts.extensions = false;  // these tests describe the POSIX grammar (dash's)
  ParseResult r = parse(text, opts);
  if (r.error) FAIL_CHECK("unexpected syntax error: " << r.error->render() << " in: " << text);
  return r.program;
}

std::string line(std::string_view text, ParseOptions opts) {
  opts.extensions = false;  // these tests describe the POSIX grammar (dash's)
  ParseResult r = parse(text, opts);
  if (r.error) return "ERROR: " + r.error->render();
  return dump_line(*r.program);
}

SyntaxError parse_err(std::string_view text, ParseOptions opts) {
  opts.extensions = false;  // these tests describe the POSIX grammar (dash's)
  ParseResult r = parse(text, opts);
  if (!r.error) {
    FAIL_CHECK("expected a syntax error in: " << text << "\n" << dump(*r.program));
    return {};
  }
  return *r.error;
}

const ast::Command& first_command(const ast::List& l) {
  REQUIRE(!l.items.empty());
  REQUIRE(!l.items[0].and_or.first.commands.empty());
  return l.items[0].and_or.first.commands[0];
}

const ast::SimpleCommand& first_simple(const ast::List& l) {
  const ast::Command& c = first_command(l);
  REQUIRE(std::holds_alternative<ast::SimpleCommand>(c.v));
  return std::get<ast::SimpleCommand>(c.v);
}

std::string word(std::string_view text) {
  std::string d = line(text);
  // "list { simple [..] }" -> "[..]"
  const std::string prefix = "list { simple ";
  if (d.rfind(prefix, 0) != 0 || d.size() < prefix.size() + 2) return d;
  return d.substr(prefix.size(), d.size() - prefix.size() - 2);
}

ParseOptions with_aliases(const std::map<std::string, std::string, std::less<>>& table) {
  auto t = std::make_shared<std::map<std::string, std::string, std::less<>>>(table);
  ParseOptions o;
  o.alias = [t](std::string_view name) -> const std::string* {
    auto it = t->find(name);
    return it == t->end() ? nullptr : &it->second;
  };
  return o;
}

}  // namespace lash::syntax::test
