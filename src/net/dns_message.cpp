#include "net/dns_message.h"

#include <arpa/inet.h>

namespace lash::net {
namespace {

uint16_t be16(std::string_view m, size_t at) {
  return uint16_t((uint8_t(m[at]) << 8) | uint8_t(m[at + 1]));
}

bool label_char_ok(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// Reads the name at POS. Without ALLOW_POINTERS a compression pointer fails. Returns
// the offset just past the name in the message (the first pointer ends it), or nullopt.
std::optional<size_t> read_name(std::string_view m, size_t pos, bool allow_pointers, std::string& out,
                                bool& ok_chars) {
  out.clear();
  ok_chars = true;
  std::optional<size_t> end;
  size_t wire_len = 1;
  for (int jumps = 0;;) {
    if (pos >= m.size()) return std::nullopt;
    uint8_t len = uint8_t(m[pos]);
    if ((len & 0xc0) == 0xc0) {
      if (!allow_pointers || pos + 1 >= m.size() || ++jumps > 16) return std::nullopt;
      if (!end) end = pos + 2;
      size_t target = size_t(((len & 0x3f) << 8) | uint8_t(m[pos + 1]));
      if (target >= pos) return std::nullopt;  // only backwards: no loops
      pos = target;
      continue;
    }
    if (len & 0xc0) return std::nullopt;  // reserved label types
    if (len == 0) {
      if (!end) end = pos + 1;
      return end;
    }
    wire_len += size_t(len) + 1;
    if (wire_len > 255 || pos + 1 + len > m.size()) return std::nullopt;
    if (!out.empty()) out += '.';
    for (size_t i = 0; i < len; ++i) {
      char c = m[pos + 1 + i];
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
      if (!label_char_ok(c)) ok_chars = false;
      out += c;
    }
    pos += 1 + len;
  }
}

std::string reply_head(std::string_view msg, const DnsQuery& q, uint8_t rcode) {
  std::string r(msg.substr(0, q.question_end));
  // QR=1, opcode 0, AA=0, TC=0, RD copied, RA=1, rcode.
  uint16_t flags = uint16_t(0x8000 | (q.flags & 0x0100) | 0x0080 | rcode);
  r[2] = char(flags >> 8);
  r[3] = char(flags & 0xff);
  // QDCOUNT 1, AN/NS/AR 0 (an EDNS OPT record of the query is not echoed).
  r.replace(4, 8, std::string("\0\1\0\0\0\0\0\0", 8));
  return r;
}

}  // namespace

std::optional<DnsQuery> parse_dns_query(std::string_view m) {
  if (m.size() < 12 || m.size() > 65535) return std::nullopt;
  DnsQuery q;
  q.id = be16(m, 0);
  q.flags = be16(m, 2);
  if ((q.flags & 0x8000) || ((q.flags >> 11) & 0xf) != 0) return std::nullopt;  // response, or not QUERY
  if (be16(m, 4) != 1 || be16(m, 6) != 0 || be16(m, 8) != 0) return std::nullopt;
  auto end = read_name(m, 12, false, q.name, q.name_ok);
  if (!end || *end + 4 > m.size()) return std::nullopt;
  q.qtype = be16(m, *end);
  q.qclass = be16(m, *end + 2);
  q.question_end = *end + 4;
  if (q.name.empty() || q.name.size() > 253) q.name_ok = false;
  q.edns = be16(m, 10) != 0;
  return q;
}

std::string dns_refusal(std::string_view msg, const DnsQuery& q, bool nxdomain) {
  return reply_head(msg, q, nxdomain ? 3 : 0);
}

std::string dns_servfail(std::string_view msg, const DnsQuery& q) { return reply_head(msg, q, 2); }

std::string dns_upstream_query(const DnsQuery& q, uint16_t id) {
  std::string m;
  // ID, flags RD only, QDCOUNT 1, AN/NS 0, AR 1 with EDNS.
  m += char(id >> 8);
  m += char(id & 0xff);
  m += std::string("\x01\x00\x00\x01\x00\x00\x00\x00\x00", 9);
  m += char(q.edns ? 1 : 0);
  size_t start = 0;
  while (start <= q.name.size()) {
    size_t dot = q.name.find('.', start);
    if (dot == std::string::npos) dot = q.name.size();
    m += char(dot - start);
    m += q.name.substr(start, dot - start);
    start = dot + 1;
  }
  m += '\0';
  m += char(q.qtype >> 8);
  m += char(q.qtype & 0xff);
  m += char(q.qclass >> 8);
  m += char(q.qclass & 0xff);
  // OPT: root owner, type 41, UDP payload 1232, no extended flags, no options.
  if (q.edns) m += std::string("\x00\x00\x29\x04\xd0\x00\x00\x00\x00\x00\x00", 11);
  return m;
}

std::optional<std::string> dns_reply_for_client(std::string_view reply, std::string_view upstream_query,
                                                std::string_view client_query, const DnsQuery& q) {
  size_t qlen = q.question_end - 12;  // the same name, so the same length upstream
  if (reply.size() < 12 + qlen || upstream_query.size() < 12 + qlen || client_query.size() < q.question_end)
    return std::nullopt;
  if (reply.substr(0, 2) != upstream_query.substr(0, 2)) return std::nullopt;
  for (size_t i = 12; i < 12 + qlen; ++i) {
    char c = reply[i];
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c != upstream_query[i]) return std::nullopt;
  }
  std::string out(reply);
  out.replace(0, 2, client_query.substr(0, 2));
  out.replace(12, qlen, client_query.substr(12, qlen));
  return out;
}

std::optional<DnsAnswer> parse_dns_answer(std::string_view m) {
  if (m.size() < 12) return std::nullopt;
  DnsAnswer a;
  a.id = be16(m, 0);
  uint16_t flags = be16(m, 2);
  if (!(flags & 0x8000) || be16(m, 4) != 1) return std::nullopt;
  a.rcode = uint8_t(flags & 0xf);
  bool chars_ok;
  auto pos = read_name(m, 12, true, a.question, chars_ok);
  if (!pos || *pos + 4 > m.size()) return std::nullopt;
  a.qtype = be16(m, *pos);
  size_t at = *pos + 4;
  unsigned ancount = be16(m, 6);
  std::string owner;
  for (unsigned i = 0; i < ancount; ++i) {
    auto p = read_name(m, at, true, owner, chars_ok);
    if (!p || *p + 10 > m.size()) return std::nullopt;
    uint16_t type = be16(m, *p), cls = be16(m, *p + 2), rdlen = be16(m, *p + 8);
    size_t rdata = *p + 10;
    if (rdata + rdlen > m.size()) return std::nullopt;
    char text[INET6_ADDRSTRLEN];
    if (cls == 1 && type == kDnsTypeA && rdlen == 4 && inet_ntop(AF_INET, m.data() + rdata, text, sizeof text))
      a.addrs.emplace_back(text);
    else if (cls == 1 && type == kDnsTypeAAAA && rdlen == 16 &&
             inet_ntop(AF_INET6, m.data() + rdata, text, sizeof text))
      a.addrs.emplace_back(text);
    at = rdata + rdlen;
  }
  return a;
}

}  // namespace lash::net
