#include "net/http_stream.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lash::net;

namespace {
// Runs the stream over INPUT fed in pieces of CHUNK bytes; returns the hosts of heads
// in order, with "!" appended on a refusal.
std::vector<std::string> hosts(const std::string& input, size_t chunk = 100000) {
  HttpRequestStream s;
  std::vector<std::string> out;
  std::string pending;
  for (size_t at = 0; at < input.size(); at += chunk) {
    pending += input.substr(at, chunk);
    for (;;) {
      HttpStep st = s.next(pending);
      if (st.kind == HttpStep::need_more) break;
      if (st.kind == HttpStep::malformed) {
        out.push_back("!");
        return out;
      }
      if (st.kind == HttpStep::head) {
        out.push_back(st.host);
        s.accept_head();
      }
      pending.erase(0, st.length);
      if (pending.empty()) break;
    }
  }
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("http: Host of every request on a keep-alive connection") {
  std::string two = "GET / HTTP/1.1\r\nHost: Example.com:8080\r\n\r\nGET /x HTTP/1.1\r\nhost: evil.com\r\n\r\n";
  CHECK(hosts(two) == V{"example.com", "evil.com"});
  for (size_t chunk : {1, 3, 17}) CHECK(hosts(two, chunk) == V{"example.com", "evil.com"});
  std::string body = "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 40\r\n\r\n" + std::string(40, 'G') +
                     "GET / HTTP/1.1\r\nHost: b.com\r\n\r\n";
  CHECK(hosts(body, 7) == V{"a.com", "b.com"});
  std::string chunked =
      "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nGET /\r\n3;ext=1\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n"
      "GET / HTTP/1.1\r\nHost: c.com\r\n\r\n";
  CHECK(hosts(chunked, 2) == V{"a.com", "c.com"});
}

TEST_CASE("http: absolute-form and CONNECT name their host") {
  CHECK(hosts("GET http://a.com/x HTTP/1.1\r\nHost: a.com\r\n\r\n") == V{"a.com"});
  CHECK(hosts("GET http://b.com/x HTTP/1.1\r\nHost: a.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET http://b.com/x HTTP/1.1\r\n\r\n") == V{"b.com"});
  CHECK(hosts("CONNECT b.com:443 HTTP/1.1\r\nHost: b.com:443\r\n\r\n") == V{"b.com"});
  CHECK(hosts("GET http://[2001:db8::1]:80/ HTTP/1.1\r\n\r\n") == V{"2001:db8::1"});
}

TEST_CASE("http: hostile heads are refused") {
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nHost: b.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost : a.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nX: y\r\n\tHost: b.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost: user@a.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n") ==
        V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\n\r\n") == V{"!"});       // no name to check
  CHECK(hosts("GET / HTTP/2.0\r\nHost: a.com\r\n\r\n") == V{"!"});
  CHECK(hosts(std::string(40000, 'A')) == V{"!"});       // never a head: capped
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\n" + std::string(40000, 'x')) == V{"!"});
  CHECK(hosts("\x16\x03\x01") == V{"!"});
  CHECK(hosts("POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") == V{"a.com", "!"});
}

TEST_CASE("http: an upgraded connection is opaque after its checked head") {
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nUpgrade: websocket\r\n\r\n\x81\x05hello GET / HTTP/1.1\r\n") ==
        V{"a.com"});
  CHECK(looks_like_http("GE") == Looks::maybe);
  CHECK(looks_like_http("SSH-2.0-OpenSSH\r\n") == Looks::no);
  CHECK(looks_like_http("PUT /") == Looks::maybe);
  CHECK(looks_like_http("PUT / HTTP/1.1\r\n") == Looks::yes);
}

TEST_CASE("http: only a well-formed request line starts a checked request") {
  for (const char* bad : {"\r\nGET / HTTP/1.1\r\n", " GET / HTTP/1.1\r\n", "get / HTTP/1.1\r\n",
                          "XYZ\r\nHost: a\r\n", "GET  / HTTP/1.1\r\n", "GET / HTTP/1.1 \r\n",
                          "GET / HTTP/1.1\n", "GET / HTTP/2.0\r\n", "GET /\x01 HTTP/1.1\r\n", "\x16\x03\x01"})
    CHECK_MESSAGE(looks_like_http(bad) == Looks::no, bad);
  CHECK(looks_like_http("M-SEARCH * HTTP/1.1\r\n") == Looks::yes);
  // A bare LF in a field could end the line for the server and carry a second Host.
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nX: a\nHost: b.com\r\n\r\n") == V{"!"});
  CHECK(hosts("GET / HTTP/1.1\r\nHost: a.com\r\nX: a\rb\r\n\r\n") == V{"!"});
}
