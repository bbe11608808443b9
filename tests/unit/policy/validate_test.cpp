#include "policy/validate.h"

#include <doctest/doctest.h>

#include "helpers.h"

using namespace lash::policy;

namespace {
template <class T>
T val(lash::Result<T> r) {
  REQUIRE_MESSAGE(r.ok(), r.error().message());
  return std::move(r).value();
}
}  // namespace

TEST_CASE("validate: booleans") {
  for (auto t : {"true", "yes", "on", "1", "TRUE", "Yes"}) CHECK(val(validate::boolean(t)) == true);
  for (auto f : {"false", "no", "off", "0", "False"}) CHECK(val(validate::boolean(f)) == false);
  for (auto bad : {"", "2", "y", "enabled", "true!"}) CHECK_FALSE(validate::boolean(bad));
}

TEST_CASE("validate: sizes are powers of 1024") {
  CHECK(val(validate::size("0")) == 0);
  CHECK(val(validate::size("512")) == 512);
  CHECK(val(validate::size("4K")) == 4096);
  CHECK(val(validate::size("3M")) == 3ull << 20);
  CHECK(val(validate::size("1G")) == 1ull << 30);
  CHECK(val(validate::size("2T")) == 2ull << 40);
  for (auto bad : {"", "K", "-1", "1.5G", "1KB", "1 G", "99999999999999999999", "16777216T"})
    CHECK_FALSE(validate::size(bad));
}

TEST_CASE("validate: counts") {
  CHECK(val(validate::count("0")) == 0);
  CHECK(val(validate::count("4096")) == 4096);
  for (auto bad : {"", "-5", "+5", "1e3", "12a"}) CHECK_FALSE(validate::count(bad));
}

TEST_CASE("validate: ports and ranges") {
  CHECK(val(validate::port_range("443")) == PortRange{443, 443});
  CHECK(val(validate::port_range("8000-8100")) == PortRange{8000, 8100});
  CHECK(val(validate::port_range("1-65535")) == PortRange{1, 65535});
  for (auto bad : {"0", "65536", "", "-", "80-", "-80", "100-90", "http", "080x"})
    CHECK_FALSE(validate::port_range(bad));
}

TEST_CASE("validate: paths") {
  for (auto ok : {"/", "/usr/lib", ".", "./build", "~", "~/cache"}) CHECK(validate::path(ok));
  for (auto bad : {"", "build", "../x", "~alice/x", ".hidden"}) CHECK_FALSE(validate::path(bad));
  CHECK(validate::relative_path(".git/hooks"));
  CHECK_FALSE(validate::relative_path("/etc"));
  CHECK_FALSE(validate::relative_path("a/../../b"));
  for (auto ok : {".", "./build", "~/bin", "/opt/tools", "$TMPDIR"}) CHECK(validate::exec_path(ok));
  for (auto bad : {"", "build", "$HOME", "$TMPDIR/x", "${TMPDIR}"}) CHECK_FALSE(validate::exec_path(bad));
}

TEST_CASE("validate: programs, env patterns, force entries, plugins") {
  CHECK(validate::program("make"));
  CHECK(validate::program("/usr/bin/make"));
  CHECK_FALSE(validate::program("bin/make"));
  CHECK_FALSE(validate::program(".."));
  CHECK(validate::env_pattern("PATH"));
  CHECK(validate::env_pattern("LC_*"));
  CHECK(validate::env_pattern("*"));
  CHECK_FALSE(validate::env_pattern("A*B"));
  CHECK_FALSE(validate::env_pattern("1X"));
  CHECK(validate::env_force("CI=true"));
  CHECK(validate::env_force("EMPTY="));
  CHECK_FALSE(validate::env_force("CI"));
  CHECK_FALSE(validate::env_force("=x"));
  CHECK(validate::plugin_name("git.status"));
  CHECK_FALSE(validate::plugin_name("a b"));
}

TEST_CASE("validate: host patterns") {
  CHECK(val(validate::host_pattern("Example.COM.")) == "example.com");
  CHECK(val(validate::host_pattern("*.example.com")) == "*.example.com");
  CHECK(validate::host_pattern("10.0.0.0/8"));
  CHECK(validate::host_pattern("2001:db8::/32"));
  CHECK(validate::host_pattern("192.168.1.7"));
  for (auto bad : {"", "*", "*example.com", "ex ample.com", "-a.com", "a..com", "http://x.com",
                   "b\xc3\xbcro.de", "10.0.0.0/33", "a.*.com"})
    CHECK_FALSE(validate::host_pattern(bad));
  auto err = validate::host_pattern("b\xc3\xbcro.de");
  CHECK(err.error().what.find("xn--") != std::string::npos);
}

TEST_CASE("validate: profile names are never paths") {
  CHECK(validate::is_profile_name("ci"));
  CHECK(validate::is_profile_name("team_A-2"));
  CHECK(validate::is_profile_name(std::string(64, 'a')));
  for (auto bad : {"", "../x", "a/b", "a.b", "a b"}) CHECK_FALSE(validate::is_profile_name(bad));
  CHECK_FALSE(validate::is_profile_name(std::string(65, 'a')));
}

TEST_CASE("validate: lists") {
  CHECK(validate::split_list("")->empty());
  CHECK(val(validate::split_list(" a ,b,  c ")) == List{"a", "b", "c"});
  CHECK(val(validate::split_list("a, b,")) == List{"a", "b"});
  CHECK_FALSE(validate::split_list("a,,b"));
  CHECK_FALSE(validate::split_list(","));
}

TEST_CASE("validate: bad values in files are located with their key") {
  auto r = test::parse("[resources]\nmax_memory = 1.5G\n[network]\nallow_ports = 99999\n"
                       "[environment]\nforce = NOEQUALS\n[filesystem]\nsandbox = rel/dir\n"
                       "[inherit]\nfrom = ../etc\n");
  REQUIRE_FALSE(r);
  const std::string& e = r.error().what;
  CHECK(e.find("t.profile:2: max_memory: expected a size") != std::string::npos);
  CHECK(e.find("t.profile:4: allow_ports: expected a port") != std::string::npos);
  CHECK(e.find("t.profile:6: force: expected KEY=VALUE, got 'NOEQUALS'") != std::string::npos);
  CHECK(e.find("t.profile:8: sandbox: path 'rel/dir' is not absolute") != std::string::npos);
  CHECK(e.find("t.profile:10: from: invalid profile name '../etc'") != std::string::npos);
}
