// DNS messages as the relay sees them (RFC 1035), parsed from untrusted bytes. Pure:
// no sockets, no allocation beyond the results. The relay answers a query from policy
// (forward, NXDOMAIN, NODATA) and learns ip -> name from the forwarded answer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lash::net {

inline constexpr uint16_t kDnsTypeA = 1, kDnsTypeAAAA = 28, kDnsTypeCNAME = 5;
inline constexpr uint16_t kDnsTypeSVCB = 64, kDnsTypeHTTPS = 65;
inline constexpr size_t kDnsMaxUdp = 4096;

struct DnsQuery {
  uint16_t id = 0;
  uint16_t flags = 0;
  std::string name;   // lowercase, no trailing dot, "" for the root
  uint16_t qtype = 0, qclass = 0;
  size_t question_end = 0;  // offset just past the question (for building answers)
  bool name_ok = false;     // only letters, digits, '-', '_' in labels of 1..63 bytes
  bool edns = false;        // the client sent an additional section (an OPT record)
};
// A standard query with exactly one question (QR = 0, opcode 0). Anything else:
// nullopt (the relay answers FORMERR or drops it). Compression pointers are refused in
// a query: clients never send them there, and they only add ways to confuse a parser.
std::optional<DnsQuery> parse_dns_query(std::string_view msg);

// RCODE 3 (NXDOMAIN) or 0 with no answers (NODATA) for QUERY: header and question echoed.
std::string dns_refusal(std::string_view msg, const DnsQuery& q, bool nxdomain);
// RCODE 2 (SERVFAIL): the host resolver did not answer.
std::string dns_servfail(std::string_view msg, const DnsQuery& q);

// The query lash sends upstream for Q: built from the parsed question only (ID, the
// lowercase name, qtype, qclass, RD; with EDNS an OPT record of lash's own), so nothing
// else the client put in its packet (ID, letter case, EDNS options, extra records)
// leaves the machine. Q.name must be name_ok.
std::string dns_upstream_query(const DnsQuery& q, uint16_t id);
// The upstream's REPLY to UPSTREAM_QUERY made for the client: the client's ID and
// question bytes (letter case included) put back. nullopt when the reply's question
// is not the one asked.
std::optional<std::string> dns_reply_for_client(std::string_view reply, std::string_view upstream_query,
                                                std::string_view client_query, const DnsQuery& q);

struct DnsAnswer {
  uint16_t id = 0;
  uint8_t rcode = 0;
  std::string question;             // normalized, as parse_dns_query gives it
  uint16_t qtype = 0;
  std::vector<std::string> addrs;   // every A / AAAA in the answer section, as literals
};
// A response (QR = 1) with one question; name compression followed with a loop bound.
std::optional<DnsAnswer> parse_dns_answer(std::string_view msg);

}  // namespace lash::net
