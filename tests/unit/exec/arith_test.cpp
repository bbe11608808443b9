// Unit tests of exec/arith: expected values checked against dash (and bash for the
// operators dash lacks: ++ -- and the comma operator).
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "exec/arith.h"

using lash::exec::arith_eval;
using lash::exec::ArithVars;

namespace {

struct MapVars : ArithVars {
  std::map<std::string, std::string, std::less<>> vars;
  std::set<std::string, std::less<>> readonly;
  int gets = 0;
  int sets = 0;
  const std::string* get(std::string_view name) override {
    ++gets;
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : &it->second;
  }
  bool set(std::string_view name, int64_t value, std::string* error) override {
    ++sets;
    if (readonly.count(name)) {
      *error = std::string(name) + ": is read only";
      return false;
    }
    vars[std::string(name)] = std::to_string(value);
    return true;
  }
};

int64_t ev(std::string_view e, MapVars& v) {
  auto r = arith_eval(e, v);
  INFO("expr: ", e, " error: ", r.error.value_or(""));
  CHECK_FALSE(r.error.has_value());
  return r.value;
}

int64_t ev(std::string_view e) {
  MapVars v;
  return ev(e, v);
}

std::string err(std::string_view e, MapVars& v) {
  auto r = arith_eval(e, v);
  INFO("expr: ", e, " value: ", r.value);
  REQUIRE(r.error.has_value());
  return *r.error;
}

std::string err(std::string_view e) {
  MapVars v;
  return err(e, v);
}

}  // namespace

TEST_SUITE("arith") {

TEST_CASE("literals") {
  CHECK(ev("0") == 0);
  CHECK(ev("42") == 42);
  CHECK(ev("  12  ") == 12);
  CHECK(ev("010") == 8);
  CHECK(ev("0x1F") == 31);
  CHECK(ev("0X1f") == 31);
  CHECK(ev("0xff") == 255);
  CHECK(ev("00") == 0);
  CHECK(ev("9223372036854775807") == INT64_MAX);
  // dash (strtoimax) saturates an out-of-range literal.
  CHECK(ev("99999999999999999999") == INT64_MAX);
  CHECK(ev("-9223372036854775807-1") == INT64_MIN);
  CHECK(ev("") == 0);
  CHECK(ev("   ") == 0);
  CHECK(ev("\n1\n") == 1);
}

TEST_CASE("invalid literals") {
  CHECK(err("09") == "invalid number '09'");
  CHECK(err("08") == "invalid number '08'");
  CHECK(err("0x") == "invalid number '0x'");
  CHECK(err("0x1g") == "invalid number '0x1g'");
  CHECK(err("12abc") == "invalid number '12abc'");
  CHECK(err("1_0") == "invalid number '1_0'");
}

TEST_CASE("precedence and associativity") {
  CHECK(ev("1+2*3") == 7);
  CHECK(ev("(1+2)*3") == 9);
  CHECK(ev("10-3-2") == 5);
  CHECK(ev("100/10/5") == 2);
  CHECK(ev("2*3%4") == 2);
  CHECK(ev("1<<2+1") == 8);
  CHECK(ev("1+1<<1") == 4);
  CHECK(ev("5 > 3 > 1") == 0);
  CHECK(ev("1 == 1 == 1") == 1);
  CHECK(ev("1 < 2 == 1") == 1);
  CHECK(ev("6 & 3 ^ 1 | 8") == (((6 & 3) ^ 1) | 8));
  CHECK(ev("1 | 2 ^ 3 & 4") == (1 | (2 ^ (3 & 4))));
  CHECK(ev("1 || 0 && 0") == 1);
  CHECK(ev("0 && 0 || 1") == 1);
  CHECK(ev("1 ? 2 : 3 ? 4 : 5") == 2);
  CHECK(ev("0 ? 2 : 0 ? 4 : 5") == 5);
  CHECK(ev("0 ? 2 : 1 ? 4 : 5") == 4);
  CHECK(ev("1 ? 0 ? 7 : 8 : 9") == 8);
  CHECK(ev("-2*-3") == 6);
  CHECK(ev("-2+-3") == -5);
  CHECK(ev("3 - -5") == 8);
  CHECK(ev("- -5") == 5);
  CHECK(ev("--5") == 5);
  CHECK(ev("++5") == 5);
  CHECK(ev("1++2") == 3);
  CHECK(ev("1--2") == 3);
  CHECK(ev("1 - - - 2") == -1);
  CHECK(ev("!5") == 0);
  CHECK(ev("!0") == 1);
  CHECK(ev("!!7") == 1);
  CHECK(ev("~5") == -6);
  CHECK(ev("~-1") == 0);
  CHECK(ev("-~0") == 1);
  CHECK(ev("!1+1") == 1);
  CHECK(ev("1,2") == 2);
  CHECK(ev("(1,2)+1") == 3);
}

TEST_CASE("relational") {
  CHECK(ev("1<2") == 1);
  CHECK(ev("2<2") == 0);
  CHECK(ev("2<=2") == 1);
  CHECK(ev("3>2") == 1);
  CHECK(ev("2>=3") == 0);
  CHECK(ev("2==2") == 1);
  CHECK(ev("2!=2") == 0);
  CHECK(ev("-1<0") == 1);
}

TEST_CASE("overflow wraps and edge division") {
  CHECK(ev("9223372036854775807+1") == INT64_MIN);
  CHECK(ev("-9223372036854775807-2") == INT64_MAX);
  CHECK(ev("9223372036854775807*2") == -2);
  CHECK(ev("(-9223372036854775807-1)/-1") == INT64_MIN);
  CHECK(ev("(-9223372036854775807-1)%-1") == 0);
  CHECK(ev("-(-9223372036854775807-1)") == INT64_MIN);
  CHECK(ev("7/2") == 3);
  CHECK(ev("-7/2") == -3);
  CHECK(ev("-7%2") == -1);
  CHECK(ev("7%-2") == 1);
  CHECK(ev("5/-1") == -5);
}

TEST_CASE("shifts are masked") {
  CHECK(ev("1<<64") == 1);
  CHECK(ev("1<<65") == 2);
  CHECK(ev("1<<63") == INT64_MIN);
  CHECK(ev("1<<-1") == INT64_MIN);
  CHECK(ev("-1>>63") == -1);
  CHECK(ev("-8>>1") == -4);
  CHECK(ev("256>>66") == 64);
}

TEST_CASE("division by zero") {
  CHECK(err("1/0") == "division by zero");
  CHECK(err("1%0") == "division by zero");
  MapVars v;
  v.vars["x"] = "5";
  CHECK(err("x/=0", v) == "division by zero");
  CHECK(v.vars["x"] == "5");
  CHECK(err("x%=0", v) == "division by zero");
}

TEST_CASE("syntax errors") {
  CHECK(err("1+") == "syntax error: unexpected end of expression");
  CHECK(err("1 2") == "syntax error: unexpected '2'");
  CHECK(err("(1") == "missing ')'");
  CHECK(err("(1 2)") == "syntax error: unexpected '2'");
  CHECK(err("1)") == "syntax error: unexpected ')'");
  CHECK(err("$") == "syntax error: unexpected '$'");
  CHECK(err("@") == "syntax error: unexpected '@'");
  CHECK(err("1 ? 2") == "missing ':'");
  CHECK(err("1 ? 2 3") == "syntax error: unexpected '3'");
  CHECK(err("*1") == "syntax error: unexpected '*'");
  CHECK(err("1 = 2") == "syntax error: unexpected '='");
  CHECK(err("0 && y=5") == "syntax error: unexpected '='");
  CHECK(err("1+b=3") == "syntax error: unexpected '='");
  CHECK(err("5++") == "syntax error: unexpected end of expression");
  CHECK(err("x 1") == "syntax error: unexpected '1'");
  CHECK(err("()") == "syntax error: unexpected ')'");
  CHECK(err("1 << = 2") == "syntax error: unexpected '='");
  CHECK(err("a b") == "syntax error: unexpected 'b'");
}

TEST_CASE("variables") {
  MapVars v;
  v.vars["x"] = " 3 ";
  v.vars["b"] = "0x10";
  v.vars["c"] = "010";
  v.vars["e"] = "";
  v.vars["w"] = "  ";
  v.vars["n"] = "-4";
  v.vars["p"] = "+4";
  v.vars["big"] = "-9223372036854775808";
  CHECK(ev("x", v) == 3);
  CHECK(ev("x+1", v) == 4);
  CHECK(ev("b", v) == 16);
  CHECK(ev("c", v) == 8);
  CHECK(ev("e", v) == 0);
  CHECK(ev("w", v) == 0);
  CHECK(ev("unset_var", v) == 0);
  CHECK(ev("n*2", v) == -8);
  CHECK(ev("p", v) == 4);
  CHECK(ev("big", v) == INT64_MIN);
  CHECK(ev("_a1", v) == 0);
}

TEST_CASE("variables that are not integers (dash: Illegal number)") {
  MapVars v;
  v.vars["y"] = "abc";
  v.vars["v"] = "1 2";
  v.vars["u"] = "9999999999999999999999";
  v.vars["o"] = "09";
  v.vars["h"] = "0x";
  v.vars["s"] = "- 3";
  v.vars["expr"] = "1+1";
  CHECK(err("y", v) == "Illegal number: abc");
  CHECK(err("y+1", v) == "Illegal number: abc");
  CHECK(err("v", v) == "Illegal number: 1 2");
  CHECK(err("u", v) == "Illegal number: 9999999999999999999999");
  CHECK(err("o", v) == "Illegal number: 09");
  CHECK(err("h", v) == "Illegal number: 0x");
  CHECK(err("s", v) == "Illegal number: - 3");
  CHECK(err("expr", v) == "Illegal number: 1+1");
}

TEST_CASE("assignment") {
  MapVars v;
  CHECK(ev("a=5", v) == 5);
  CHECK(v.vars["a"] == "5");
  CHECK(ev("a=b=3", v) == 3);
  CHECK(v.vars["a"] == "3");
  CHECK(v.vars["b"] == "3");
  CHECK(ev("(a=3)+a", v) == 6);
  CHECK(ev("a = a + 1", v) == 4);
  CHECK(ev("x=abc", v) == 0);  // abc is an unset variable
  CHECK(v.vars["x"] == "0");
  v.vars["x"] = "5";
  CHECK(ev("x+=1, x*=2, x<<=1, x>>=1, x%=5, x|=8, x&=12, x^=3, x-=1, x/=2", v) == 5);
  CHECK(v.vars["x"] == "5");
  v.vars["x"] = "7";
  CHECK(ev("x-=10", v) == -3);
  CHECK(ev("x<<=2", v) == -12);
  CHECK(ev("x>>=1", v) == -6);
  CHECK(ev("x&=5", v) == 0);
  CHECK(ev("x|=6", v) == 6);
  CHECK(ev("x^=3", v) == 5);
  CHECK(ev("x*=3", v) == 15);
  CHECK(ev("x/=4", v) == 3);
  CHECK(ev("x%=2", v) == 1);
  CHECK(ev("1 ? y = 5 : 3", v) == 5);
  CHECK(v.vars["y"] == "5");
  CHECK(ev("x == 1", v) == 1);   // not an assignment
  CHECK(ev("x <= 1", v) == 1);
  CHECK(ev("x >= 1", v) == 1);
  CHECK(ev("x != 1", v) == 0);
  CHECK(ev("z = 2, z * 3", v) == 6);
}

TEST_CASE("assignment to a read-only variable") {
  MapVars v;
  v.vars["r"] = "1";
  v.readonly.insert("r");
  CHECK(err("r=2", v) == "r: is read only");
  CHECK(err("r++", v) == "r: is read only");
  CHECK(err("++r", v) == "r: is read only");
  CHECK(err("r+=1", v) == "r: is read only");
  CHECK(v.vars["r"] == "1");
}

TEST_CASE("increment and decrement (bash)") {
  MapVars v;
  v.vars["x"] = "3";
  CHECK(ev("++x", v) == 4);
  CHECK(v.vars["x"] == "4");
  CHECK(ev("x++", v) == 4);
  CHECK(v.vars["x"] == "5");
  CHECK(ev("x--", v) == 5);
  CHECK(v.vars["x"] == "4");
  CHECK(ev("--x", v) == 3);
  CHECK(v.vars["x"] == "3");
  CHECK(ev("x+++2", v) == 5);  // (x++) + 2
  CHECK(v.vars["x"] == "4");
  CHECK(ev("x---2", v) == 2);  // (x--) - 2
  CHECK(v.vars["x"] == "3");
  CHECK(ev("x--2", v) == 5);   // x - -2, as in dash
  CHECK(ev("x++y", v) == 3);   // x + +y
  CHECK(v.vars["x"] == "3");
  CHECK(ev("++ x", v) == 4);
  CHECK(ev("x ++", v) == 4);
  CHECK(v.vars["x"] == "5");
  CHECK(ev("new++", v) == 0);
  CHECK(v.vars["new"] == "1");
  CHECK(ev("--neg", v) == -1);
  v.vars["m"] = "9223372036854775807";
  CHECK(ev("++m", v) == INT64_MIN);
  CHECK(ev("(x++)*2", v) == 10);
  CHECK(ev("i=0, i++, i++, i", v) == 2);
  v.vars["bad"] = "abc";
  CHECK(err("bad++", v) == "Illegal number: abc");
}

TEST_CASE("short circuit: no side effects in the unevaluated branch") {
  MapVars v;
  v.vars["y"] = "abc";
  CHECK(ev("0 && y", v) == 0);
  CHECK(ev("1 || y", v) == 1);
  CHECK(ev("0 ? y : 2", v) == 2);
  CHECK(ev("1 ? 2 : y", v) == 2);
  CHECK(ev("0 && 1/0", v) == 0);
  CHECK(ev("1 || 1/0", v) == 1);
  CHECK(ev("1 ? 2 : 1/0", v) == 2);
  CHECK(ev("0 && (a = 5)", v) == 0);
  CHECK(v.vars.count("a") == 0);
  CHECK(ev("1 || (a += 5)", v) == 1);
  CHECK(v.vars.count("a") == 0);
  CHECK(ev("0 && a++", v) == 0);
  CHECK(ev("0 && ++a", v) == 0);
  CHECK(ev("0 ? a = 1 : 2", v) == 2);
  CHECK(ev("1 ? 2 : (a = 1)", v) == 2);
  CHECK(ev("0 && (1 ? a = 1 : 2)", v) == 0);
  CHECK(v.vars.count("a") == 0);
  CHECK(ev("0 && 0 || (b = 4)", v) == 1);
  CHECK(v.vars["b"] == "4");
  CHECK(ev("2 && 3") == 1);
  CHECK(ev("2 || y", v) == 1);
  CHECK(ev("0 || 0") == 0);
  CHECK(ev("0 || 7") == 1);
  // Syntax errors are still reported in the unevaluated part.
  CHECK(err("0 && (1 +)") == "syntax error: unexpected ')'");
}

TEST_CASE("depth is bounded") {
  std::string deep(1000, '(');
  deep += "1";
  deep += std::string(1000, ')');
  CHECK(err(deep) == "expression nested too deeply");
  std::string neg;
  for (int i = 0; i < 100000; ++i) neg += "- ";
  neg += "1";
  CHECK(err(neg) == "expression nested too deeply");
  std::string tern;
  for (int i = 0; i < 5000; ++i) tern += "1?1:";
  tern += "1";
  CHECK(err(tern) == "expression nested too deeply");
  std::string asg;
  for (int i = 0; i < 5000; ++i) asg += "a=";
  asg += "1";
  CHECK(err(asg) == "expression nested too deeply");
  // Moderate nesting is fine.
  std::string ok(100, '(');
  ok += "7";
  ok += std::string(100, ')');
  CHECK(ev(ok) == 7);
  // A long flat expression does not nest.
  std::string flat = "0";
  for (int i = 0; i < 10000; ++i) flat += "+1";
  CHECK(ev(flat) == 10000);
}

TEST_CASE("variables are looked up only when evaluated") {
  MapVars v;
  v.vars["i"] = "41";
  CHECK(ev("i+1", v) == 42);
  CHECK(v.gets == 1);
  CHECK(v.sets == 0);
}

}  // TEST_SUITE
