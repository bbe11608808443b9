// One audit record (cli.md): time (RFC 3339, UTC), session id, user, profile, then the
// action object rendered by policy::action_json (kind, target, decision, key, problem,
// suggestion, ...) so `profile test --json` and the log agree field by field, and for
// processes the pid and exit status.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"
#include "policy/action.h"
#include "policy/decision.h"
#include "policy/json_text.h"

namespace lash::audit {

using Json = policy::Json;

struct Context {
  std::string session;  // LASH_SESSION id
  std::string user;
  std::string profile;  // active profile name
};

struct Record {
  std::string time;  // "2026-11-25T23:04:05.123Z"
  std::string session, user, profile;
  Json action;       // policy::action_json(...) or an event object
  std::optional<int64_t> pid;
  std::optional<int> exit_status;

  // One JSON object and a trailing newline; an Error (never an exception) if it cannot
  // be encoded.
  Result<std::string> to_line() const;
};

std::string rfc3339_utc(std::chrono::system_clock::time_point t);

Record make_record(const Context& ctx, const policy::Action& action,
                   const policy::Decision& decision,
                   std::chrono::system_clock::time_point when = std::chrono::system_clock::now());

// A record that is not an engine decision, e.g. kind "profile", target the assigned
// profile, decision "fallback", problem = the warning text.
Record make_event(const Context& ctx, std::string_view kind, std::string_view target,
                  std::string_view decision, std::string_view message,
                  std::chrono::system_clock::time_point when = std::chrono::system_clock::now());

// Whether to write the record of DECISION: denials always, allowed actions only under
// `[monitoring] enabled = true`.
bool should_record(bool monitoring_enabled, const policy::Decision& decision);

}  // namespace lash::audit
