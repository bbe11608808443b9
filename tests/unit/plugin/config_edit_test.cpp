#include <doctest/doctest.h>

#include "policy/user_config.h"

using namespace lash::policy;

TEST_CASE("config edits keep every other line") {
  std::string t = "; mine\n[plugin]\ntimeout = 3\n\n[profile]\ndefault = ci\n";
  CHECK(edit_config_text(t, "plugin.timeout", "5") == "; mine\n[plugin]\ntimeout = 5\n\n[profile]\ndefault = ci\n");
  CHECK(edit_config_text(t, "plugin.timeout", std::nullopt) == "; mine\n[plugin]\n\n[profile]\ndefault = ci\n");
  CHECK(edit_config_text(t, "profile.auto_detect", "true") ==
        "; mine\n[plugin]\ntimeout = 3\n\n[profile]\ndefault = ci\nauto_detect = true\n");
  CHECK(edit_config_text("", "prompt.ps1", "$ ") == "[prompt]\nps1 = \"$ \"\n");
}

TEST_CASE("config values are checked per key and read back as written") {
  CHECK(validate_config_value("plugin.timeout", "0").ok() == false);
  CHECK(validate_config_value("plugin.timeout", "10").value() == "10");
  CHECK(validate_config_value("profile.auto_detect", "yes").value() == "true");
  CHECK_FALSE(validate_config_value("profile.default", "../x"));
  CHECK_FALSE(validate_config_value("prompt.ps1", "a\nb"));
  CHECK_FALSE(validate_config_value("prompt.ps1", "a ; b"));
  CHECK_FALSE(validate_config_value("no.such", "1"));
  std::vector<std::string> w;
  auto v = parse_config(edit_config_text("", "prompt.ps1", " > "), "config", false, &w);
  REQUIRE(v.size() == 1);
  CHECK(v[0].value == " > ");
  CHECK(w.empty());
  auto sys = parse_config("[users]\nalice = ci\n[plugin]\ntimeout = 7\n", "lash.conf", true, &w);
  REQUIRE(sys.size() == 1);
  CHECK(sys[0].system);
  CHECK(sys[0].line == 4);
}
