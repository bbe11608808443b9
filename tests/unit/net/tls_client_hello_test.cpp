#include "net/tls_client_hello.h"

#include <doctest/doctest.h>

#include <string>

using namespace lash::net;

namespace {
std::string u16(size_t v) { return std::string{char(v >> 8), char(v & 0xff)}; }

std::string sni_ext(const std::string& name) {
  std::string entry = std::string(1, '\0') + u16(name.size()) + name;
  std::string body = u16(entry.size()) + entry;
  return u16(0) + u16(body.size()) + body;
}

// A ClientHello handshake message with EXTS, as one byte string (no record layer).
std::string hello(const std::string& exts) {
  std::string b = u16(0x0303) + std::string(32, 'r') + std::string(1, '\0') + u16(2) + u16(0x1301) +
                  std::string("\x01\x00", 2) + u16(exts.size()) + exts;
  return std::string(1, '\x01') + '\0' + u16(b.size()) + b;
}

// Split HS into records of at most CHUNK bytes.
std::string records(const std::string& hs, size_t chunk = 16384) {
  std::string out;
  for (size_t at = 0; at < hs.size(); at += chunk) {
    std::string part = hs.substr(at, chunk);
    out += std::string("\x16\x03\x01", 3) + u16(part.size()) + part;
  }
  return out;
}
}  // namespace

TEST_CASE("tls: the SNI of a ClientHello") {
  auto r = scan_client_hello(records(hello(sni_ext("Example.COM"))));
  CHECK(r.kind == ClientHelloScan::done);
  CHECK(r.has_sni);
  CHECK(r.sni == "example.com");
  CHECK(r.sni_ok);
  auto none = scan_client_hello(records(hello("")));
  CHECK(none.kind == ClientHelloScan::done);
  CHECK_FALSE(none.has_sni);
}

TEST_CASE("tls: split across records and segments") {
  std::string pad = u16(21) + u16(600) + std::string(600, '\0');  // padding extension
  std::string full = records(hello(pad + sni_ext("a.example.org")), 100);
  for (size_t cut : {size_t(0), size_t(1), size_t(4), size_t(5), size_t(50), size_t(105), full.size() - 1})
    CHECK(scan_client_hello(full.substr(0, cut)).kind == ClientHelloScan::need_more);
  auto r = scan_client_hello(full);
  CHECK(r.kind == ClientHelloScan::done);
  CHECK(r.sni == "a.example.org");
}

TEST_CASE("tls: hostile hellos") {
  CHECK(scan_client_hello("GET / HTTP/1.1\r\n").kind == ClientHelloScan::not_tls);
  // two server_name extensions, or two host names in one: refused, not first-wins
  CHECK(scan_client_hello(records(hello(sni_ext("a.com") + sni_ext("b.com")))).kind == ClientHelloScan::malformed);
  std::string entries = std::string(1, '\0') + u16(5) + "a.com" + std::string(1, '\0') + u16(5) + "b.com";
  std::string two = u16(0) + u16(entries.size() + 2) + u16(entries.size()) + entries;
  CHECK(scan_client_hello(records(hello(two))).kind == ClientHelloScan::malformed);
  // a name with odd bytes is reported as not ok
  auto odd = scan_client_hello(records(hello(sni_ext(std::string("a\0b.com", 7)))));
  CHECK(odd.kind == ClientHelloScan::done);
  CHECK_FALSE(odd.sni_ok);
  // a handshake length beyond the cap
  std::string big = std::string("\x16\x03\x01", 3) + u16(4) + std::string("\x01\x10\x00\x00", 4);
  CHECK(scan_client_hello(big).kind == ClientHelloScan::malformed);
  // a record of another type in between
  std::string hs = hello(sni_ext("a.com"));
  std::string mixed = records(hs.substr(0, 10)) + std::string("\x17\x03\x03\x00\x01x", 6);
  CHECK(scan_client_hello(mixed).kind == ClientHelloScan::malformed);
  // a length field that overruns its container
  std::string bad = hello(sni_ext("a.com"));
  bad[bad.size() - 7] = char(0x7f);  // the name's length
  CHECK(scan_client_hello(records(bad)).kind == ClientHelloScan::malformed);
}

TEST_CASE("tls: GREASE ECH is tolerated, the outer name is what is checked") {
  std::string ech = u16(0xfe0d) + u16(4) + "grea";
  auto r = scan_client_hello(records(hello(ech + sni_ext("public.example.com"))));
  CHECK(r.kind == ClientHelloScan::done);
  CHECK(r.ech);
  CHECK(r.sni == "public.example.com");
}

TEST_CASE("tls: the server_name list holds exactly one host_name") {
  // A name of another type (1) beside or instead of the host_name: refused, not skipped.
  auto odd = [](const std::string& entries) {
    std::string body = u16(entries.size()) + entries;
    return u16(0) + u16(body.size()) + body;
  };
  std::string host = std::string(1, '\0') + u16(5) + "a.com";
  std::string other = std::string(1, '\x01') + u16(5) + "b.com";
  CHECK(scan_client_hello(records(hello(odd(host + other)))).kind == ClientHelloScan::malformed);
  CHECK(scan_client_hello(records(hello(odd(other)))).kind == ClientHelloScan::malformed);
  CHECK(scan_client_hello(records(hello(odd(host)))).sni == "a.com");
  // 254 bytes: longer than any host name.
  auto longname = scan_client_hello(records(hello(sni_ext(std::string(254, 'a')))));
  CHECK_FALSE(longname.sni_ok);
  // Another record type first (change-cipher-spec, application data): not a ClientHello.
  CHECK(scan_client_hello(std::string("\x14\x03\x03\x00\x01\x01", 6) + records(hello(sni_ext("a.com")))).kind ==
        ClientHelloScan::not_tls);
}
