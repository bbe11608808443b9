#include "policy/host_match.h"

#include <doctest/doctest.h>

using namespace lash::policy;

TEST_CASE("host_match: exact names, case and trailing dot") {
  HostMatcher m({"example.com"});
  CHECK(m.match_name("example.com"));
  CHECK(m.match_name("Example.COM."));
  CHECK_FALSE(m.match_name("www.example.com"));
  CHECK_FALSE(m.match_name("example.com.evil"));
  CHECK_FALSE(m.match_name(""));
}

TEST_CASE("host_match: wildcards match subdomains of any depth, not the apex") {
  HostMatcher m({"*.example.com"});
  CHECK(m.match_name("a.example.com"));
  CHECK(m.match_name("a.b.c.example.com"));
  CHECK_FALSE(m.match_name("example.com"));
  CHECK_FALSE(m.match_name("evilexample.com"));
  CHECK_FALSE(m.match_name(".example.com"));
}

TEST_CASE("host_match: IPs and CIDRs match addresses, never names") {
  HostMatcher m({"10.0.0.0/8", "192.168.1.5", "2001:db8::/32"});
  CHECK(m.match_ip("10.255.0.1"));
  CHECK_FALSE(m.match_ip("11.0.0.1"));
  CHECK(m.match_ip("192.168.1.5"));
  CHECK_FALSE(m.match_ip("192.168.1.6"));
  CHECK(m.match_ip("2001:db8:1::1"));
  CHECK_FALSE(m.match_ip("2001:db9::1"));
  CHECK(m.match_ip("::ffff:10.1.1.1"));  // IPv4-mapped
  CHECK_FALSE(m.match_ip("not-an-ip"));
  CHECK_FALSE(m.match_name("10.1.1.1"));
  HostMatcher names({"example.com"});
  CHECK_FALSE(names.match_ip("93.184.216.34"));
}

TEST_CASE("host_match: prefix edges") {
  HostMatcher m({"0.0.0.0/0"});
  CHECK(m.match_ip("8.8.8.8"));
  CHECK_FALSE(m.match_ip("::1"));
  HostMatcher odd({"172.16.0.0/12"});
  CHECK(odd.match_ip("172.31.255.255"));
  CHECK_FALSE(odd.match_ip("172.32.0.0"));
  CHECK_FALSE(parse_ip_net("10.0.0.0/33"));
  CHECK_FALSE(parse_ip_net("10.0.0.0/"));
  CHECK_FALSE(parse_ip_net("/8"));
}

TEST_CASE("host_match: hostile names never match") {
  HostMatcher m({"example.com", "*.example.org", "xn--bcher-kva.example"});
  CHECK_FALSE(m.match_name("evilexample.com"));
  CHECK_FALSE(m.match_name("example.com.."));
  CHECK_FALSE(m.match_name(".example.com"));
  CHECK_FALSE(m.match_name("a..example.org"));  // empty label
  CHECK_FALSE(m.match_name("example.org."));
  CHECK(m.match_name("A.EXAMPLE.ORG."));
  CHECK_FALSE(m.match_name(std::string("a\0.example.org", 14)));
  CHECK_FALSE(m.match_name("a b.example.org"));
  CHECK_FALSE(m.match_name("*.example.org"));
  CHECK(m.match_name("xn--bcher-kva.example"));         // punycode compared as is
  CHECK_FALSE(m.match_name("b\xc3\xbc" "cher.example"));   // raw UTF-8 is no name
  std::string l63(63, 'a');
  std::string n253 = l63 + "." + l63 + "." + l63 + "." + std::string(49, 'a') + ".example.org";
  REQUIRE(n253.size() == 253);
  CHECK(m.match_name(n253));
  CHECK(m.match_name(n253 + "."));
  CHECK_FALSE(m.match_name("a" + n253));
  CHECK_FALSE(m.match_name(std::string(64, 'a') + ".example.org"));
  HostMatcher bad({"*", "*.", "a..b", ""});
  CHECK(bad.empty());
  CHECK_FALSE(bad.match_name("a"));
}
