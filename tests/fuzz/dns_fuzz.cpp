// libFuzzer target for net/dns_message: any bytes as a query and as an answer. Besides
// never crashing: a parsed query's refusal parses back as an answer to the same name,
// and every name reported as ok is a valid host name of at most 253 bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "net/dns_message.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (auto q = lash::net::parse_dns_query(in)) {
    check(q->question_end <= in.size());
    if (q->name_ok) check(q->name.size() <= 253 && !q->name.empty());
    auto nx = lash::net::dns_refusal(in, *q, true);
    auto a = lash::net::parse_dns_answer(nx);
    check(a.has_value());
    check(a->rcode == 3 && a->addrs.empty() && a->question == q->name);
  }
  if (auto a = lash::net::parse_dns_answer(in)) check(a->addrs.size() <= in.size() / 11);
  return 0;
}
