#include <doctest/doctest.h>

#include "plugin/manifest.h"

using namespace lash::plugin;

namespace {
std::optional<Manifest> parse(const std::string& text, lash::policy::Diags& d) {
  return parse_manifest(text, "plugin.ini", "/p/x", d);
}
}  // namespace

TEST_CASE("a complete manifest") {
  lash::policy::Diags d;
  auto m = parse(
      "[plugin]\nname = x\nversion = 1\ndescription = d\nexecutable = run.sh\ntimeout = 4\n"
      "[method go]\ndescription = goes\nparams = a, b\n"
      "[access]\nread_only = /usr, ~/.x, $LASH_HOME/audit.log\nallow_hosts = Example.org\n",
      d);
  REQUIRE(m);
  CHECK(m->executable == "/p/x/run.sh");
  CHECK(m->timeout_seconds == 4);
  REQUIRE(m->find("go"));
  CHECK(m->find("go")->params == std::vector<std::string>{"a", "b"});
  CHECK(m->access.read_only.size() == 3);
  CHECK(m->access.allow_hosts == std::vector<std::string>{"example.org"});
}

TEST_CASE("manifests that would reach outside their directory or are incomplete are refused") {
  for (const char* bad : {
           "[plugin]\nname = x\nexecutable = /bin/sh\n",
           "[plugin]\nname = x\nexecutable = ../y\n",
           "[plugin]\nname = x\n",
           "[plugin]\nexecutable = a\n",
           "[plugin]\nname = bad/name\nexecutable = a\n",
           "[plugin]\nname = x\nexecutable = a\nsurprise = 1\n",
           "[plugin]\nname = x\nexecutable = a\n[access]\nread_only = relative/path\n",
           "[plugin]\nname = x\nexecutable = a\n[access]\nread_write = $LASH_HOME/../etc\n",
           "[plugin]\nname = x\nexecutable = a\n[method a]\ndescription = 1\n[method a]\ndescription = 2\n",
           "[plugin]\nname = x\nexecutable = a\n[method bad name!]\n",
           "[plugin]\nname = x\nexecutable = a\ndescription = \x1b[31mred\n",
           "[other]\n",
       }) {
    lash::policy::Diags d;
    INFO(std::string(bad));
    CHECK_FALSE(parse(bad, d));
    CHECK_FALSE(d.empty());
  }
}
