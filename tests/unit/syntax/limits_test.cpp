// Hostile input: deep nesting, huge lines and words, binary garbage.
#include <doctest/doctest.h>

#include <chrono>
#include <random>

#include "helpers.h"

using namespace lash::syntax;
using namespace lash::syntax::test;

namespace {
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out.append(s);
  return out;
}

// Seconds, scaled down for sanitizer builds (about ten times slower), so the
// bounds below catch quadratic behaviour, not slow builds.
double seconds_to_parse(const std::string& text) {
  auto t0 = std::chrono::steady_clock::now();
  ParseResult r = parse(text, {});
  auto t1 = std::chrono::steady_clock::now();
  double s = std::chrono::duration<double>(t1 - t0).count();
  return kSanitized ? s / 10 : s;
}
}  // namespace

TEST_CASE("deep nesting is a clear error, not a stack overflow") {
  const size_t n = 10000;
  const std::string cases[] = {
      repeat("(", n) + "a" + repeat(")", n),
      "echo " + repeat("$(", n) + "a" + repeat(")", n),
      "echo " + repeat("${a:-", n) + "a" + repeat("}", n),
      "echo " + repeat("\"${a:-", n) + "a" + repeat("}\"", n),
      repeat("if a; then ", n) + "b" + repeat("; fi", n),
      repeat("{ ", n) + "a" + repeat("; }", n),
      repeat("f() ", n) + "{ a; }",
      repeat("while a; do ", n) + "b" + repeat("; done", n),
      "echo " + repeat("$((", n) + "1" + repeat("))", n),
      "echo " + repeat("`", 2 * n),
      repeat("case a in a) ", n) + "b" + repeat(";; esac", n),
  };
  for (const std::string& text : cases) {
    auto t0 = std::chrono::steady_clock::now();
    ParseOptions posix;
    posix.extensions = false;  // "((((" would be arithmetic to bash
    ParseResult r = parse(text, posix);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(s < (kSanitized ? 20.0 : 2.0));
    if (text.rfind("echo ``", 0) == 0) continue;  // pairs of backquotes do not nest
    REQUIRE(r.error);
    // Sanitizer builds have big stack frames and may run out of stack budget first.
    CHECK(r.error->message.rfind(kSanitized ? "nesting too deep" : "nesting too deep (limit 1000)", 0) == 0);
    CHECK_FALSE(r.error->incomplete);
  }
}

TEST_CASE("nesting up to the limit works, and the limit is configurable") {
  ParseOptions o;
  o.extensions = false;
  o.max_depth = 50;
  CHECK_FALSE(parse(repeat("(", 50) + "a" + repeat(")", 50), o).error);
  ParseResult r = parse(repeat("(", 51) + "a" + repeat(")", 51), o);
  REQUIRE(r.error);
  CHECK(r.error->column == 51);
  CHECK_FALSE(parse("echo " + repeat("$(", 49) + "a" + repeat(")", 49), o).error);
  CHECK(parse("echo " + repeat("$(", 51) + "a" + repeat(")", 51), o).error);
  const size_t deep = kSanitized ? 200 : 900;
  CHECK_FALSE(parse(repeat("(", deep) + "a" + repeat(")", deep), {}).error);
  CHECK_FALSE(parse("echo " + repeat("$(", deep) + "a" + repeat(")", deep), {}).error);
}

TEST_CASE("long lines, long words and many commands parse in linear time") {
  const std::string word(1 << 20, 'x');
  CHECK(seconds_to_parse("echo " + word) < 1.0);
  CHECK(seconds_to_parse("echo '" + word + "'") < 1.0);
  CHECK(seconds_to_parse("echo \"" + word + "\"") < 1.0);
  CHECK(seconds_to_parse("cat <<E\n" + repeat(word.substr(0, 100) + "\n", 10000) + "E\n") < 1.0);
  CHECK(seconds_to_parse(repeat("echo a b c; ", 100000)) < 2.0);
  CHECK(seconds_to_parse(repeat("a | ", 100000) + "b") < 2.0);
  CHECK(seconds_to_parse(repeat("$x", 200000)) < 1.0);
  CHECK(seconds_to_parse(repeat("echo $((1+2)) ${a:-b} $(c)\n", 20000)) < 2.0);
  CHECK(seconds_to_parse(repeat("\\\n", 200000) + "echo") < 1.0);
  CHECK(seconds_to_parse("echo $((" + repeat("(", 100000) + "1" + repeat(")", 100000) + "))") < 1.0);
  // Unbalanced "$((" scans are bounded.
  CHECK(seconds_to_parse(repeat("$((", 3000)) < 2.0);
  // An unterminated quote at the start of a big text fails once, not per line.
  CHECK(seconds_to_parse("'" + repeat("line\n", 200000)) < 1.0);
}

TEST_CASE("binary garbage never crashes or hangs") {
  std::mt19937 rng(12345);
  const std::string alphabet = "(){}[]$`'\"\\|&;<>#=~*?! \t\n\r\x01\x7f\xff" "abcif fi do done case esac in 0123456789:-+%";
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    size_t len = rng() % 200;
    for (size_t j = 0; j < len; ++j) {
      if (rng() % 4 == 0) text.push_back(static_cast<char>(rng() % 256));
      else text.push_back(alphabet[rng() % alphabet.size()]);
    }
    ParseResult r = parse(text, {});
    CHECK((r.program != nullptr) != r.error.has_value());
    if (r.error) CHECK(r.error->offset <= text.size());
    if (r.program) (void)dump(*r.program);
    Parser p(text, {});
    for (int k = 0; k < 1000; ++k) {
      auto item = p.next();
      if (item.kind != Parser::Item::Kind::command) break;
      CHECK_FALSE(item.command->items.empty());
    }
  }
}
