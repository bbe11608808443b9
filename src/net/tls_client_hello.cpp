#include "net/tls_client_hello.h"

#include <cstdint>

namespace lash::net {
namespace {

struct Reader {
  std::string_view s;
  size_t at = 0;
  bool ok = true;
  size_t left() const { return s.size() - at; }
  uint32_t num(size_t n) {
    if (!ok || left() < n) {
      ok = false;
      return 0;
    }
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | uint8_t(s[at + i]);
    at += n;
    return v;
  }
  std::string_view take(size_t n) {
    if (!ok || left() < n) {
      ok = false;
      return {};
    }
    auto v = s.substr(at, n);
    at += n;
    return v;
  }
};

bool host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == ':';
}

// The server_name extension body: one host_name entry (RFC 6066 allows one per type).
bool read_sni(std::string_view body, ClientHelloScan& out) {
  Reader r{body};
  std::string_view list = r.take(r.num(2));
  if (!r.ok || r.left() != 0) return false;
  Reader l{list};
  bool seen = false;
  while (l.ok && l.left() > 0) {
    uint32_t type = l.num(1);
    std::string_view name = l.take(l.num(2));
    if (!l.ok) return false;
    // Exactly one entry, a host_name: any other name type is refused, never skipped.
    if (type != 0 || seen) return false;
    seen = true;
    out.sni.clear();
    out.sni_ok = !name.empty() && name.size() <= 253;
    for (char c : name) {
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
      if (!host_char(c)) out.sni_ok = false;
      out.sni += c;
    }
  }
  out.has_sni = seen;
  return l.ok;
}

ClientHelloScan parse_hello(std::string_view hs) {
  ClientHelloScan out;
  Reader r{hs};
  r.num(2);        // legacy_version
  r.take(32);      // random
  r.take(r.num(1));  // session id
  r.take(r.num(2));  // cipher suites
  r.take(r.num(1));  // compression methods
  if (!r.ok) return {ClientHelloScan::malformed};
  out.kind = ClientHelloScan::done;
  if (r.left() == 0) return out;  // no extensions at all
  std::string_view exts = r.take(r.num(2));
  if (!r.ok || r.left() != 0) return {ClientHelloScan::malformed};
  Reader e{exts};
  bool sni_seen = false;
  while (e.ok && e.left() > 0) {
    uint32_t type = e.num(2);
    std::string_view body = e.take(e.num(2));
    if (!e.ok) break;
    if (type == 0) {
      if (sni_seen || !read_sni(body, out)) return {ClientHelloScan::malformed};
      sni_seen = true;
    } else if (type == 0xfe0d) {
      out.ech = true;
    }
  }
  if (!e.ok) return {ClientHelloScan::malformed};
  return out;
}

}  // namespace

ClientHelloScan scan_client_hello(std::string_view bytes) {
  if (bytes.empty()) return {};
  if (uint8_t(bytes[0]) != 22) return {ClientHelloScan::not_tls};
  // Gather the handshake bytes out of consecutive handshake records.
  std::string hs;
  size_t at = 0;
  while (true) {
    if (bytes.size() - at < 5) return at >= kMaxClientHello + 5 ? ClientHelloScan{ClientHelloScan::malformed}
                                                                : ClientHelloScan{};
    if (uint8_t(bytes[at]) != 22 || uint8_t(bytes[at + 1]) != 3) return {ClientHelloScan::malformed};
    size_t len = (size_t(uint8_t(bytes[at + 3])) << 8) | uint8_t(bytes[at + 4]);
    if (len == 0 || len > 16384) return {ClientHelloScan::malformed};
    if (bytes.size() - at - 5 < len) {
      if (hs.size() + len > kMaxClientHello + 4) return {ClientHelloScan::malformed};
      return {};
    }
    hs.append(bytes.substr(at + 5, len));
    at += 5 + len;
    if (hs.size() >= 4) {
      if (uint8_t(hs[0]) != 1) return {ClientHelloScan::malformed};  // not a ClientHello
      size_t need = (size_t(uint8_t(hs[1])) << 16) | (size_t(uint8_t(hs[2])) << 8) | uint8_t(hs[3]);
      if (need > kMaxClientHello) return {ClientHelloScan::malformed};
      if (hs.size() >= 4 + need) return parse_hello(std::string_view(hs).substr(4, need));
    }
    if (hs.size() > kMaxClientHello + 4) return {ClientHelloScan::malformed};
    if (at == bytes.size()) return {};
  }
}

}  // namespace lash::net
