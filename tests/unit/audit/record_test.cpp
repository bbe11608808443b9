#include "audit/record.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "policy/builtin_profiles.h"
#include "policy/engine.h"
#include "policy/report.h"
#include "policy/resolver.h"

using namespace lash;
using namespace lash::audit;

namespace {
policy::Engine restricted() {
  policy::MemoryStore s;
  auto p = policy::load_resolved(s, "restricted", policy::ResolveOptions{false, true});
  REQUIRE(p);
  return policy::Engine(*p, policy::SessionFacts{});
}
const Context kCtx{"s-42", "bob", "restricted"};
const auto kWhen = std::chrono::system_clock::time_point(std::chrono::milliseconds(1764112445123));

// "builtin:restricted.profile:N" for the line that sets spawn_allowlist.
std::string allowlist_source() {
  for (const auto& b : policy::builtin_profiles()) {
    if (b.name != "restricted") continue;
    auto at = b.text.find("\nspawn_allowlist");
    return "builtin:restricted.profile:" +
           std::to_string(std::count(b.text.begin(), b.text.begin() + long(at) + 1, '\n') + 1);
  }
  return "";
}
}  // namespace

TEST_CASE("record: RFC 3339 UTC time with milliseconds") {
  CHECK(rfc3339_utc(kWhen) == "2025-11-25T23:14:05.123Z");
  CHECK(rfc3339_utc(std::chrono::system_clock::time_point{}) == "1970-01-01T00:00:00.000Z");
}

TEST_CASE("record: a denial has every field of cli.md, in one line") {
  auto e = restricted();
  policy::Spawn s{"curl", "/usr/bin/curl"};
  Record r = make_record(kCtx, s, e.decide(s), kWhen);
  r.pid = 1234;
  r.exit_status = 126;
  auto line = r.to_line();
  REQUIRE(line);
  CHECK(*line ==
        R"({"time":"2025-11-25T23:14:05.123Z","session":"s-42","user":"bob","profile":"restricted",)"
        R"("kind":"spawn","target":"curl","resolved":"/usr/bin/curl","decision":"deny",)"
        R"("key":"process.spawn_allowlist","source":")" + allowlist_source() + R"(",)"
        R"("problem":"This session (profile: restricted) cannot run 'curl'.",)"
        R"("suggestion":"'curl' is not in the allowlist.",)"
        R"("pid":1234,"exit_status":126})"
        "\n");
}

TEST_CASE("record: the action object is exactly what profile test --json prints") {
  auto e = restricted();
  policy::Redirect rd{"/home/u/x", policy::RedirectMode::write};
  auto d = e.decide(rd);
  Record r = make_record(kCtx, rd, d, kWhen);
  // Written out, not computed by the code under test: the fields cli.md documents for
  // `profile test --json`, with the values restricted gives this write, in this order.
  auto parsed = Json::parse(r.to_line().value());
  std::vector<std::string> keys;
  for (const auto& [k, v] : r.action.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"kind", "target", "mode", "decision", "key", "source",
                                         "problem", "suggestion"});
  CHECK(r.action["kind"] == "redirect");
  CHECK(r.action["target"] == "/home/u/x");
  CHECK(r.action["mode"] == ">");
  CHECK(r.action["decision"] == "deny");
  CHECK(r.action["key"] == "capabilities.file_redirect");
  CHECK(r.action["source"].get<std::string>().rfind("builtin:restricted.profile:", 0) == 0);
  CHECK(r.action["problem"] == "This session (profile: restricted) cannot write to '/home/u/x'.");
  // the audit line carries the same fields with the same values
  for (const auto& k : keys) CHECK_MESSAGE(parsed[k] == r.action[k], k);
  CHECK(parsed["session"] == "s-42");
  // and it is the object profile test --json prints for the same action
  CHECK(r.action == policy::action_json(rd, d));
}

TEST_CASE("record: non-UTF-8 bytes are escaped and flagged, never thrown") {
  auto e = restricted();
  policy::Spawn s{std::string("\xff\xfe"), ""};
  Context ctx{"s", std::string("us\xe9r"), "restricted"};
  Record r = make_record(ctx, s, e.decide(s), kWhen);
  auto line = r.to_line();
  REQUIRE(line);
  auto j = Json::parse(*line);
  CHECK(j["user"] == "us\\xe9r");
  CHECK(j["target"] == "\\xff\\xfe");
  std::vector<std::string> escaped = j["escaped"];
  CHECK(escaped == std::vector<std::string>{"user", "target", "problem", "suggestion"});
}

TEST_CASE("record: events (fallback to restricted)") {
  Record r = make_event(kCtx, "profile", "team", "fallback", "profile 'team' cannot be loaded", kWhen);
  auto j = Json::parse(r.to_line().value());
  CHECK(j["kind"] == "profile");
  CHECK(j["decision"] == "fallback");
  CHECK(j["problem"] == "profile 'team' cannot be loaded");
}

TEST_CASE("record: denials always, allowed actions only under monitoring") {
  policy::Decision allow;
  allow.verdict = policy::Verdict::allow;
  policy::Decision deny;
  CHECK(should_record(false, deny));
  CHECK(should_record(true, allow));
  CHECK_FALSE(should_record(false, allow));
  policy::Decision warn;
  warn.advisory = true;
  CHECK(should_record(false, warn));
}
