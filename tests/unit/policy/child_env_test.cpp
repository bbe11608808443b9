#include "policy/child_env.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.h"

using namespace lash::policy;

namespace {
std::vector<std::string> build(const std::string& profile, std::vector<std::string> env,
                               std::vector<std::string> always = {}) {
  auto p = test::resolved(profile);
  auto out = ChildEnv(p->values).build(env, always);
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("child env: without rules everything exported passes") {
  CHECK(build("[profile]\ndescription = x\n", {"A=1", "B=2"}) == std::vector<std::string>{"A=1", "B=2"});
}

TEST_CASE("child env: deny strips names and prefixes") {
  CHECK(build("[environment]\ndeny = LD_PRELOAD, SECRET_*\n",
              {"LD_PRELOAD=/x.so", "SECRET_TOKEN=t", "SECRET=s", "PATH=/bin"}) ==
        std::vector<std::string>{"PATH=/bin", "SECRET=s"});
}

TEST_CASE("child env: pass keeps only listed names, deny still applies") {
  CHECK(build("[environment]\npass = PATH, LC_*, HOME\ndeny = HOME\n",
              {"PATH=/bin", "LC_ALL=C", "HOME=/root", "TOKEN=t"}) ==
        std::vector<std::string>{"LC_ALL=C", "PATH=/bin"});
  CHECK(build("[environment]\npass =\n", {"PATH=/bin"}).empty());
}

TEST_CASE("child env: force is injected and replaces; always wins over everything") {
  CHECK(build("[environment]\nforce = CI=true, LANG=C\npass = PATH\n",
              {"PATH=/bin", "CI=false"}, {"LASH_SESSION=s1"}) ==
        std::vector<std::string>{"CI=true", "LANG=C", "LASH_SESSION=s1", "PATH=/bin"});
  CHECK(build("[environment]\nforce = LASH_SESSION=fake\n", {}, {"LASH_SESSION=real"}) ==
        std::vector<std::string>{"LASH_SESSION=real"});
}
