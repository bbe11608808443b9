#include "audit/record.h"

#include <ctime>
#include <cstdio>

#include "policy/report.h"

namespace lash::audit {

std::string rfc3339_utc(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = std::time_t(ms / 1000);
  int millis = int(ms % 1000);
  if (millis < 0) {
    millis += 1000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

Result<std::string> Record::to_line() const {
  try {
    Json o = Json::object();
    o["time"] = time;
    policy::put_string(o, "session", session);
    policy::put_string(o, "user", user);
    policy::put_string(o, "profile", profile);
    for (const auto& [k, v] : action.items()) {
      if (k == "escaped" && o.contains("escaped")) {
        for (const auto& e : v) o["escaped"].push_back(e);
        continue;
      }
      o[k] = v;
    }
    if (pid) o["pid"] = *pid;
    if (exit_status) o["exit_status"] = *exit_status;
    return o.dump() + "\n";
  } catch (const std::exception& e) {
    return Error{std::string("cannot encode audit record: ") + e.what(), {}, 0, {}};
  }
}

static Record header(const Context& ctx, std::chrono::system_clock::time_point when) {
  Record r;
  r.time = rfc3339_utc(when);
  r.session = ctx.session;
  r.user = ctx.user;
  r.profile = ctx.profile;
  return r;
}

Record make_record(const Context& ctx, const policy::Action& action,
                   const policy::Decision& decision, std::chrono::system_clock::time_point when) {
  Record r = header(ctx, when);
  r.action = policy::action_json(action, decision);
  return r;
}

Record make_event(const Context& ctx, std::string_view kind, std::string_view target,
                  std::string_view decision, std::string_view message,
                  std::chrono::system_clock::time_point when) {
  Record r = header(ctx, when);
  r.action = Json::object();
  r.action["kind"] = std::string(kind);
  policy::put_string(r.action, "target", target);
  r.action["decision"] = std::string(decision);
  r.action["key"] = nullptr;
  if (!message.empty()) policy::put_string(r.action, "problem", message);
  return r;
}

bool should_record(bool monitoring_enabled, const policy::Decision& decision) {
  return decision.verdict == policy::Verdict::deny || decision.advisory || monitoring_enabled;
}

}  // namespace lash::audit
