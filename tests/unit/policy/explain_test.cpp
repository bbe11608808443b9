// Problem/Suggestion texts verbatim (cli.md), and the JSON of `profile test`.
#include "policy/explain.h"

#include <doctest/doctest.h>

#include "helpers.h"
#include "policy/engine.h"
#include "policy/report.h"

using namespace lash::policy;

namespace {
Engine restricted_like() {
  auto p = test::resolved("[process]\nspawn_allowlist = ls\n", "restricted");
  return Engine(p, SessionFacts{});
}
}  // namespace

TEST_CASE("explain: the refusal of cli.md, byte for byte") {
  auto d = restricted_like().decide(Spawn{"curl", "/usr/bin/curl"});
  // then the deciding key and where it was set, then the session's advice
  explain::set_session_advice("Ask the administrator.");
  CHECK(explain::refusal_lines(d).rfind(
            "Problem: This session (profile: restricted) cannot run 'curl'.\n"
            "Suggestion: 'curl' is not in the allowlist. Decided by process.spawn_allowlist (set at ",
            0) == 0);
  CHECK(explain::refusal_lines(d).find("). Ask the administrator.\n") != std::string::npos);
}

TEST_CASE("explain: a problem text for every kind of action") {
  CHECK(explain::problem("p", Spawn{"x", ""}) == "This session (profile: p) cannot run 'x'.");
  CHECK(explain::problem("p", Redirect{"/a/b", RedirectMode::append}) ==
        "This session (profile: p) cannot write to '/a/b'.");
  CHECK(explain::problem("p", EnvChange{"PATH", EnvOp::unset}) ==
        "This session (profile: p) cannot change the exported variable 'PATH'.");
  CHECK(explain::problem("p", Builtin{Capability::job_control_own, "fg"}) ==
        "This session (profile: p) cannot use 'fg'.");
  CHECK(explain::problem("p", PluginCall{"git", "status"}) ==
        "This session (profile: p) cannot call plugin 'git.status'.");
  CHECK(explain::problem("p", NetConnect{"example.com", "1.2.3.4", 22, ""}) ==
        "This session (profile: p) cannot connect to 'example.com' on port 22.");
}

TEST_CASE("explain: a suggestion naming the key for every rule") {
  CHECK(explain::in_denylist("rm") == "'rm' is in the denylist.");
  CHECK(explain::no_file_redirect() ==
        "Redirecting output to files is turned off (file_redirect).");
  CHECK(explain::protected_path(".git/hooks") ==
        "'.git/hooks' is kept read-only inside writable paths (protect).");
  CHECK(explain::no_env_mutation() ==
        "Changing the exported environment is turned off (mutation).");
  CHECK(explain::not_in_safelist("LD_PRELOAD") ==
        "'LD_PRELOAD' is not in the environment safelist.");
  CHECK(explain::capability_needed("fg", Capability::job_control_own) ==
        "'fg' needs the job_control_own capability.");
  CHECK(explain::no_plugin_access() ==
        "Plugin calls are turned off (plugin_access).");
  CHECK(explain::plugin_not_allowed("docker") ==
        "'docker' is not in the plugin allowlist.");
  CHECK(explain::network_closed() ==
        "This profile allows no network connections (allow_hosts is empty, block_all_others = "
        "true).");
}

TEST_CASE("explain: control bytes cannot break the two-line shape") {
  auto d = restricted_like().decide(Spawn{"evil\nSuggestion: ok", ""});
  std::string lines = explain::refusal_lines(d);
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 2);
  CHECK(d.problem == "This session (profile: restricted) cannot run 'evil\\x0aSuggestion: ok'.");
}

TEST_CASE("explain: action_json has the fields of cli.md") {
  auto e = restricted_like();
  auto deny = action_json(Spawn{"curl", "/usr/bin/curl"}, e.decide(Spawn{"curl", "/usr/bin/curl"}));
  CHECK(deny.dump() ==
        R"({"kind":"spawn","target":"curl","resolved":"/usr/bin/curl","decision":"deny",)"
        R"("key":"process.spawn_allowlist","source":"user:restricted.profile:2",)"
        R"("problem":"This session (profile: restricted) cannot run 'curl'.",)"
        R"("suggestion":"'curl' is not in the allowlist."})");
  auto allow = action_json(Redirect{"/x", RedirectMode::read}, e.decide(Redirect{"/x", RedirectMode::read}));
  CHECK(allow.dump() == R"({"kind":"redirect","target":"/x","mode":"<","decision":"allow","key":null})");
  auto dyn = action_json(Spawn{"$cmd", ""}, dynamic_decision());
  CHECK(dyn["decision"] == "dynamic");
  auto net = action_json(NetConnect{"a.com", "1.2.3.4", 443, "a.com"}, e.decide(NetConnect{"a.com", "1.2.3.4", 443, "a.com"}));
  CHECK(net["kind"] == "network");
  CHECK(net["target"] == "a.com:443");
  CHECK(net["port"] == 443);
}

TEST_CASE("explain: non-UTF-8 bytes are escaped and flagged, never thrown on") {
  auto e = restricted_like();
  Spawn s{std::string("caf\xe9"), ""};
  auto j = action_json(s, e.decide(s));
  CHECK(j["target"] == "caf\\xe9");
  CHECK(j["escaped"] == Json::array({"target", "problem", "suggestion"}));
  CHECK_NOTHROW(j.dump());
  Spawn back{std::string("a\\b\xff"), ""};
  auto j2 = action_json(back, e.decide(back));
  CHECK(j2["target"] == "a\\x5cb\\xff");  // the backslash is escaped too: unambiguous
  Spawn utf8{"caf\xc3\xa9", ""};
  auto j3 = action_json(utf8, e.decide(utf8));
  CHECK(j3["target"] == "caf\xc3\xa9");
  CHECK_FALSE(j3.contains("escaped"));
}

TEST_CASE("explain: valid_utf8 follows RFC 3629") {
  CHECK(valid_utf8("plain"));
  CHECK(valid_utf8("\xe2\x82\xac"));
  CHECK(valid_utf8("\xf0\x9f\x98\x80"));
  CHECK_FALSE(valid_utf8("\xc0\xaf"));          // overlong
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));      // surrogate
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(valid_utf8("\xe2\x82"));          // truncated
}
