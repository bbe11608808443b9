#include "net/dns_message.h"

#include <doctest/doctest.h>

#include <string>

using namespace lash::net;

namespace {
// A query for NAME (dotted) of TYPE, as a stub resolver sends it.
std::string query(const std::string& name, uint16_t type, uint16_t id = 0x1234) {
  std::string m;
  m += char(id >> 8);
  m += char(id & 0xff);
  m += std::string("\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00", 10);
  size_t at = 0;
  while (at <= name.size() && !name.empty()) {
    size_t dot = name.find('.', at);
    if (dot == std::string::npos) dot = name.size();
    m += char(dot - at);
    m += name.substr(at, dot - at);
    at = dot + 1;
  }
  m += '\0';
  m += char(type >> 8);
  m += char(type & 0xff);
  m += std::string("\x00\x01", 2);
  return m;
}
}  // namespace

TEST_CASE("dns: a plain query is parsed and normalized") {
  auto q = parse_dns_query(query("WWW.Example.COM", kDnsTypeA));
  REQUIRE(q);
  CHECK(q->id == 0x1234);
  CHECK(q->name == "www.example.com");
  CHECK(q->qtype == kDnsTypeA);
  CHECK(q->name_ok);
  auto h = parse_dns_query(query("example.com", kDnsTypeHTTPS));
  REQUIRE(h);
  CHECK(h->qtype == 65);
}

TEST_CASE("dns: hostile queries") {
  CHECK_FALSE(parse_dns_query(""));
  CHECK_FALSE(parse_dns_query(std::string(11, '\0')));
  std::string two = query("a.com", 1);
  two[5] = 2;  // QDCOUNT 2
  CHECK_FALSE(parse_dns_query(two));
  std::string resp = query("a.com", 1);
  resp[2] = char(0x81);  // a response is not a query
  CHECK_FALSE(parse_dns_query(resp));
  std::string ptr = query("a.com", 1);
  ptr[12] = char(0xc0);  // compression pointer in the question
  ptr[13] = 12;
  CHECK_FALSE(parse_dns_query(ptr));
  std::string cut = query("example.com", 1);
  cut.resize(cut.size() - 3);
  CHECK_FALSE(parse_dns_query(cut));
  // a dot inside a label cannot pose as two labels
  std::string dotted = query("ab.com", 1);
  dotted[14] = '.';
  auto d = parse_dns_query(dotted);
  REQUIRE(d);
  CHECK_FALSE(d->name_ok);
  // over-long names: 4 labels of 63 = 255 wire bytes + root
  std::string l63(63, 'a');
  CHECK_FALSE(parse_dns_query(query(l63 + "." + l63 + "." + l63 + "." + l63, 1)));
  auto ok = parse_dns_query(query(l63 + "." + l63 + "." + l63 + "." + std::string(61, 'a'), 1));
  REQUIRE(ok);
  CHECK(ok->name_ok);
  CHECK_FALSE(parse_dns_query(query("x\x01y.com", 1))->name_ok);
}

TEST_CASE("dns: refusals echo the question with NXDOMAIN or NODATA") {
  std::string m = query("evil.com", 1);
  auto q = parse_dns_query(m);
  REQUIRE(q);
  std::string nx = dns_refusal(m, *q, true);
  CHECK(nx.size() == m.size());
  CHECK((uint8_t(nx[2]) & 0x80) != 0);  // QR
  CHECK((uint8_t(nx[3]) & 0x0f) == 3);
  CHECK(nx.substr(12) == m.substr(12));
  std::string nodata = dns_refusal(m, *q, false);
  CHECK((uint8_t(nodata[3]) & 0x0f) == 0);
  CHECK(nodata[7] == 0);  // ANCOUNT 0
  auto a = parse_dns_answer(nx);
  REQUIRE(a);
  CHECK(a->rcode == 3);
  CHECK(a->addrs.empty());
}

TEST_CASE("dns: answers give their A and AAAA addresses, through compression") {
  std::string m = query("example.com", 1);
  m[2] = char(0x81);
  m[3] = char(0x80);
  m[7] = 3;  // ANCOUNT
  // CNAME example.com -> c.example.com (pointer to offset 12), then A and AAAA.
  m += std::string("\xc0\x0c\x00\x05\x00\x01\x00\x00\x00\x3c\x00\x04\x01" "c\xc0\x0c", 16);
  m += std::string("\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04\x5d\xb8\xd8\x22", 16);
  m += std::string("\xc0\x0c\x00\x1c\x00\x01\x00\x00\x00\x3c\x00\x10", 12);
  m += std::string("\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
  auto a = parse_dns_answer(m);
  REQUIRE(a);
  CHECK(a->question == "example.com");
  REQUIRE(a->addrs.size() == 2);
  CHECK(a->addrs[0] == "93.184.216.34");
  CHECK(a->addrs[1] == "2001:db8::1");
  // A pointer loop (to itself) or forward is refused, not followed forever.
  std::string loop = m;
  loop[m.size() - 44] = char(0xc0);
  loop[m.size() - 43] = char(m.size() - 44);
  CHECK_FALSE(parse_dns_answer(loop));
  // A truncated record is refused.
  CHECK_FALSE(parse_dns_answer(m.substr(0, m.size() - 5)));
}

TEST_CASE("dns: the upstream query holds the question only; the reply goes back to the client's") {
  std::string client = query("WWW.Example.COM", kDnsTypeA, 0x4242);
  client[11] = 1;  // ARCOUNT 1: a TXT record carrying data
  client += std::string("\x00\x00\x10\x00\x01\x00\x00\x00\x00\x00\x06\x05" "exfil", 17);
  auto q = parse_dns_query(client);
  REQUIRE(q);
  CHECK(q->edns);
  std::string up = dns_upstream_query(*q, 0x0707);
  CHECK(up.find("exfil") == std::string::npos);
  CHECK(up.find("www.example.com") == std::string::npos);  // labels, lowercase
  CHECK(up.find("\x03www\x07" "example\x03" "com", 0) != std::string::npos);
  auto uq = parse_dns_query(up);
  REQUIRE(uq);
  CHECK(uq->id == 0x0707);
  CHECK(uq->name == "www.example.com");
  CHECK(up.size() == q->question_end + 11);  // the question and lash's own OPT
  // The resolver's answer: QR set, one A record through a pointer to the question.
  std::string reply = up.substr(0, uq->question_end);
  reply[2] = char(0x81);
  reply[3] = char(0x80);
  reply[7] = 1;
  reply[11] = 0;
  reply += std::string("\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04\x01\x02\x03\x04", 16);
  auto back = dns_reply_for_client(reply, up, client, *q);
  REQUIRE(back);
  CHECK(back->substr(0, 2) == "\x42\x42");
  CHECK(back->substr(12, q->question_end - 12) == client.substr(12, q->question_end - 12));
  auto a = parse_dns_answer(*back);
  REQUIRE(a);
  CHECK(a->addrs == std::vector<std::string>{"1.2.3.4"});
  // Another ID or another question is not passed on.
  std::string wrong_id = reply;
  wrong_id[1] = 0x08;
  CHECK(!dns_reply_for_client(wrong_id, up, client, *q));
  std::string wrong_q = reply;
  wrong_q[13] = 'x';
  CHECK(!dns_reply_for_client(wrong_q, up, client, *q));
}
