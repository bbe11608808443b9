#include <doctest/doctest.h>

#include "plugin/rpc.h"

using namespace lash::plugin;
using nlohmann::json;

TEST_CASE("a reply is accepted only for the request in flight") {
  auto ok = parse_reply(R"({"jsonrpc":"2.0","id":3,"result":{"a":1}})", 3);
  REQUIRE(ok);
  CHECK_FALSE(ok->is_error);
  CHECK(ok->result["a"] == 1);
  auto err = parse_reply(R"({"jsonrpc":"2.0","id":3,"error":{"code":7,"message":"no"}})", 3);
  REQUIRE(err);
  CHECK(err->is_error);
  CHECK(err->error_code == 7);
  CHECK(err->error_message == "no");
  CHECK(parse_reply(R"({"jsonrpc":"2.0","id":2,"result":1})", 3).error().what.find("out-of-order") == 0);
  CHECK(parse_reply(R"({"jsonrpc":"2.0","id":"3","result":1})", 3).error().what.find("out-of-order") == 0);
  CHECK(parse_reply(R"({"jsonrpc":"1.0","id":3,"result":1})", 3).error().what.find("not JSON-RPC 2.0") != std::string::npos);
  CHECK(parse_reply(R"({"jsonrpc":"2.0","id":3})", 3).error().what.find("exactly one") != std::string::npos);
  CHECK(parse_reply(R"({"jsonrpc":"2.0","id":3,"result":1,"error":{}})", 3).error().what.find("exactly one") != std::string::npos);
  CHECK(parse_reply("[1,2]", 3).error().what.find("not a JSON-RPC object") != std::string::npos);
  CHECK(parse_reply("{nope", 3).error().what == "malformed reply (not JSON)");
}

TEST_CASE("lines are cut at newlines and refused past 1 MiB") {
  LineBuffer b;
  std::string line;
  CHECK(b.feed("ab"));
  CHECK_FALSE(b.next_line(line));
  CHECK(b.feed("c\r\nde\n"));
  REQUIRE(b.next_line(line));
  CHECK(line == "abc");
  REQUIRE(b.next_line(line));
  CHECK(line == "de");
  LineBuffer big;
  std::string chunk(64 * 1024, 'x');
  bool fed = true;
  for (int i = 0; i < 17 && fed; ++i) fed = big.feed(chunk);
  CHECK_FALSE(fed);
  CHECK(big.oversized());
}

TEST_CASE("key=value arguments keep JSON scalar types; one JSON object is taken as is") {
  auto p = params_from_words({"n=12", "f=-1.5", "t=true", "z=null", "s=hello", "e=", "x=1e3x"});
  REQUIRE(p);
  CHECK((*p)["n"] == 12);
  CHECK((*p)["f"] == -1.5);
  CHECK((*p)["t"] == true);
  CHECK((*p)["z"].is_null());
  CHECK((*p)["s"] == "hello");
  CHECK((*p)["e"] == "");
  CHECK((*p)["x"] == "1e3x");
  CHECK_FALSE(params_from_words({"a=1", "a=2"}));
  CHECK_FALSE(params_from_words({"novalue"}));
  CHECK_FALSE(params_from_words({"=v"}));
  auto j = params_from_words({R"({"k":[1]})"});
  REQUIRE(j);
  CHECK((*j)["k"][0] == 1);
  CHECK_FALSE(params_from_words({"{not json"}));
  std::string req = make_request(5, "m", json{{"s", "a\nb"}});
  CHECK(req.back() == '\n');
  CHECK(req.find('\n') == req.size() - 1);  // one line, whatever the arguments hold
}

TEST_CASE("nesting deeper than kMaxDepth is refused before parsing; brackets in strings do not count") {
  std::string deep = std::string(kMaxDepth + 1, '[') + std::string(kMaxDepth + 1, ']');
  std::string ok = std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']');
  CHECK(nests_deeper_than(deep, kMaxDepth));
  CHECK_FALSE(nests_deeper_than(ok, kMaxDepth));
  CHECK_FALSE(nests_deeper_than("\"" + std::string(1000, '[') + "\\\"\"", kMaxDepth));
  auto r = parse_reply(R"({"jsonrpc":"2.0","id":1,"result":)" + deep + "}", 1);
  REQUIRE_FALSE(r);
  CHECK(r.error().what.find("nested deeper") != std::string::npos);
  std::string fits = std::string(kMaxDepth - 1, '[') + std::string(kMaxDepth - 1, ']');  // inside the reply object
  CHECK(parse_reply(R"({"jsonrpc":"2.0","id":1,"result":)" + fits + "}", 1));
  CHECK_FALSE(params_from_words({"{\"a\":" + deep + "}"}));
}

TEST_CASE("many short lines in one buffer are all taken out, in order, and the buffer is reused") {
  LineBuffer b;
  std::string many;
  for (int i = 0; i < 100000; ++i) many += std::to_string(i) + "\n";
  REQUIRE(b.feed(many));
  std::string line;
  int n = 0;
  bool in_order = true;
  while (b.next_line(line)) in_order = in_order && line == std::to_string(n++);
  CHECK(n == 100000);
  CHECK(in_order);
  CHECK(b.feed(std::string(1 << 20, '\n') + "\r\ntail\n"));  // blank lines are skipped
  REQUIRE(b.next_line(line));
  CHECK(line == "tail");
}
