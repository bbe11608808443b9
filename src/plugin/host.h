// The plugin host of one session: starts a plugin at its first call, sends one
// JSON-RPC request at a time and waits for the reply with a deadline. Every failure
// (timeout, malformed / oversized / out-of-order reply, crash, hang) kills the plugin
// and becomes an error for that call: the shell goes on. A plugin that failed is
// started again at its next call, at most kMaxRestarts times per session.
//
// A plugin runs under the session's sandbox (the same launcher as every program of
// the session) plus a Landlock layer built from its manifest's [access]; Landlock
// layers only intersect, so a plugin is never wider than the session.
#pragma once
#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/unique_fd.h"
#include "plugin/discovery.h"
#include "plugin/rpc.h"
#include "sandbox/prepared.h"

namespace lash::plugin {

inline constexpr int kMaxRestarts = 3;
inline constexpr int kDefaultTimeoutSeconds = 10;

struct CallOutcome {
  bool ok = false;
  Reply reply;        // when ok (reply.is_error: the plugin answered with an error)
  std::string error;  // when !ok: what went wrong, for "lash: plugin: NAME: ..."
};

// What the session gives a plugin to start with.
struct StartContext {
  const sandbox::Prepared* prepared = nullptr;
  std::vector<std::string> envp;
  std::string lash_home, home, cwd;
};

class Host {
 public:
  ~Host();
  CallOutcome call(const Found& plugin, const StartContext& ctx, const std::string& method,
                   const nlohmann::json& params, int timeout_ms);
  // Ends every running plugin (session end).
  void stop_all();
  // Landlock paths a manifest's access grants, expanded (~, $LASH_HOME): for review.
  static std::vector<std::pair<std::string, std::string>> effective_grants(const Manifest& m,
                                                                           const StartContext& ctx);

 private:
  struct Running {
    pid_t pid = -1;
    unique_fd pidfd;
    unique_fd sock;  // our end of the socketpair: requests out, replies in
    LineBuffer buf;
    int64_t next_id = 1;
  };
  Result<void> start(const Found& plugin, const StartContext& ctx, Running& r);
  void stop(Running& r);
  std::map<std::string, Running> running_;
  std::map<std::string, int> starts_;  // per plugin: how many times it was started
  pid_t owner_ = 0;                    // the process whose plugins these are
};

// The session's host (one per lash process: a subshell that calls a plugin starts its
// own copy, which ends with it).
Host& session_host();

}  // namespace lash::plugin
