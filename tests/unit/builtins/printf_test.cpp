// Unit tests of builtins/printf_format. The table in printf_dash_cases.inc holds
// dash's real output for each case (see its header); the cases below it spell out
// the rules that matter most.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "builtins/printf_format.h"

using lash::builtins::printf_format;
using lash::builtins::process_escapes_b;

namespace {

struct DashCase {
  const char* format;
  std::vector<std::string> args;
  std::string_view out;
  std::vector<std::string> errors;
  int status;
};

#include "printf_dash_cases.inc"

std::string out_of(std::string_view fmt, std::vector<std::string> args = {}) {
  auto r = printf_format(fmt, args);
  return r.out;
}

}  // namespace

TEST_SUITE("printf") {

TEST_CASE("byte for byte like dash") {
  for (const auto& c : kDashCases) {
    auto r = printf_format(c.format, c.args);
    std::string args;
    for (auto& a : c.args) args += " [" + a + "]";
    const std::string what = "format [" + std::string(c.format) + "] args" + args;
    INFO(what);
    CHECK(r.out == std::string(c.out));
    CHECK(r.errors == c.errors);
    CHECK(r.status == c.status);
  }
}

TEST_CASE("the format is re-used until the arguments run out") {
  CHECK(out_of("%s\n", {"a", "b", "c"}) == "a\nb\nc\n");
  CHECK(out_of("%s=%s;", {"a", "1", "b"}) == "a=1;b=;");
  CHECK(out_of("%d,", {"1", "2", "3"}) == "1,2,3,");
  // A format without conversions is printed once.
  CHECK(out_of("x\n", {"a", "b"}) == "x\n");
  CHECK(out_of("%%\n", {"a"}) == "%\n");
}

TEST_CASE("missing arguments are empty or zero") {
  CHECK(out_of("[%s][%d][%x][%f][%b]") == "[][0][0][0.000000][]");
  CHECK(out_of("[%c]") == std::string("[\0]", 3));
}

TEST_CASE("numeric conversions") {
  CHECK(out_of("%d %i", {"-12", "0x10"}) == "-12 16");
  CHECK(out_of("%o %x %X %u", {"8", "255", "255", "-1"}) == "10 ff FF 18446744073709551615");
  CHECK(out_of("%5d|%-5d|%05d|%+d|% d", {"42", "42", "42", "42", "42"}) ==
        "   42|42   |00042|+42| 42");
  CHECK(out_of("%#x %#o %#X", {"255", "8", "255"}) == "0xff 010 0XFF");
  CHECK(out_of("%.3d|%8.3d", {"7", "7"}) == "007|     007");
  CHECK(out_of("%*d|%-*d|%*d", {"4", "1", "4", "2", "-4", "3"}) == "   1|2   |3   ");
  CHECK(out_of("%d %d", {"'A", "\"B"}) == "65 66");
  CHECK(out_of("%.2f %e %g", {"3.14159", "1234.5", "0.0001"}) == "3.14 1.234500e+03 0.0001");
}

TEST_CASE("string conversions") {
  CHECK(out_of("%5.2s|", {"abcdef"}) == "   ab|");
  CHECK(out_of("%-4s|%4s|", {"ab", "cd"}) == "ab  |  cd|");
  CHECK(out_of("%.*s|", {"3", "abcdef"}) == "abc|");
  CHECK(out_of("%c%c", {"xyz", "7"}) == "x7");
  CHECK(out_of("%s", {"a\\nb"}) == "a\\nb");  // %s does not interpret escapes
}

TEST_CASE("invalid numbers: diagnostic, status 1, output continues") {
  auto r = printf_format("%d|%d|%d\n", {"abc", "12abc", "5"});
  CHECK(r.out == "0|12|5\n");
  CHECK(r.errors == std::vector<std::string>{"abc: expected numeric value",
                                             "12abc: not completely converted"});
  CHECK(r.status == 1);
  r = printf_format("%d\n", {"99999999999999999999"});
  CHECK(r.out == "9223372036854775807\n");
  CHECK(r.errors == std::vector<std::string>{"99999999999999999999: Numerical result out of range"});
  CHECK(r.status == 1);
}

TEST_CASE("invalid directives stop with status 2") {
  auto r = printf_format("ab%zcd", {"1"});
  CHECK(r.out == "ab");
  CHECK(r.errors == std::vector<std::string>{"%z: invalid directive"});
  CHECK(r.status == 2);
  r = printf_format("x%", {});
  CHECK(r.out == "x");
  CHECK(r.errors == std::vector<std::string>{"missing format character"});
  CHECK(r.status == 2);
  r = printf_format("%ld", {"1"});  // dash knows no length modifiers
  CHECK(r.status == 2);
  r = printf_format("%99999999999d", {"1"});
  CHECK(r.out.empty());
  CHECK(r.status == 2);
}

TEST_CASE("format escapes") {
  CHECK(out_of("a\\tb\\\\c\\n") == "a\tb\\c\n");
  CHECK(out_of("\\101\\0101\\1") == "A\0101\001");
  CHECK(out_of("\\q\\c\\") == "\\q\\c\\");  // unknown escapes stay, \c is not special here
  CHECK(out_of("\\e\\a\\b\\f\\r\\v") == "\033\a\b\f\r\v");
  CHECK(out_of("\\777\\400") == std::string("\377\0", 2));
}

TEST_CASE("%b and \\c") {
  CHECK(out_of("%b\n", {"a\\tb"}) == "a\tb\n");
  CHECK(out_of("%b|%s\n", {"a\\cb", "x", "y"}) == "a");  // \c stops everything
  CHECK(out_of("%5b|", {"ab\\c"}) == "   ab");
  CHECK(out_of("%b", {"\\0101\\101\\01012"}) == "AAA2");
  CHECK(out_of("%5b|", {"a\\0b"}) == std::string("  a\0b|", 6));
}

TEST_CASE("process_escapes_b (also echo's escapes)") {
  bool stop = true;
  CHECK(process_escapes_b("plain", &stop) == "plain");
  CHECK_FALSE(stop);
  CHECK(process_escapes_b("a\\nb\\\\", &stop) == "a\nb\\");
  CHECK(process_escapes_b("x\\cy", &stop) == "x");
  CHECK(stop);
  CHECK(process_escapes_b("\\0", &stop) == std::string(1, '\0'));
  CHECK_FALSE(stop);
  CHECK(process_escapes_b("\\08", &stop) == std::string("\0" "8", 2));
  CHECK(process_escapes_b("\\0777", &stop) == "\377");
  CHECK(process_escapes_b("\\1234", &stop) == "S4");
  CHECK(process_escapes_b("\\x41\\q\\", &stop) == "\\x41\\q\\");
  CHECK(process_escapes_b("tail\\", nullptr) == "tail\\");
}

}  // TEST_SUITE
