#include "exec/net_relay_start.h"

#include "exec/denial_limit.h"
#include "exec/session.h"
#include "net/flow_rules.h"
#include "net/relay.h"
#include "policy/engine.h"
#include "policy/explain.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <set>
#include <string>

namespace lash::exec {
namespace {

// A refused flow or name is said on the session's stderr like every other refusal
// (Problem/Suggestion with the deciding key and its file:line), once per distinct
// problem and at most kMaxSaid times a session: a program retrying must not flood the
// terminal. The audit log has every one. The relay is one thread: plain statics.
constexpr size_t kMaxSaid = 16;

void say_network_refusal(const policy::Decision& d) {
  static std::set<std::string> said;
  if (d.allowed() || d.advisory || said.size() > kMaxSaid || !said.insert(d.problem).second) return;
  std::string text = said.size() > kMaxSaid
                         ? "lash: further network refusals of this session are only in the audit log (audit tail)\n"
                         : policy::explain::refusal_lines(d);
  // Never blocking the relay on a stderr nobody reads (a full pipe would stall every
  // flow of the session): one write of under PIPE_BUF bytes, only when there is room.
  if (text.size() > 4000) text.resize(4000);
  pollfd pfd{2, POLLOUT, 0};
  if (::poll(&pfd, 1, 0) != 1 || (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) || !(pfd.revents & POLLOUT)) return;
  (void)!::write(2, text.data(), text.size());
}

// [monitoring] max_denials: the relay counts its refusals in the session's shared
// counter (audit_decision). At the limit it exits: every later flow and name of the
// session is refused (fail closed), and lash, waiting for the program in waitpid(-1),
// wakes on the relay's end, sees the count and ends the session (denial_limit.h). The
// relay may not signal lash itself (Landlock scoping), so its exit is the message.
void end_relay_at_denial_limit() {
  if (denial_limit_reached()) ::_exit(0);
}

}  // namespace

Result<void> start_network_relay(Session& s, std::shared_ptr<const policy::ResolvedProfile> profile) {
  if (!s.sandbox) return {};
  // Read now: the relay has no filesystem access once confined.
  auto resolvers = net::read_resolvers();
  auto host_addresses = net::read_host_addresses();
  return s.sandbox->start_relay([&](std::vector<sandbox::RelayListener>& ls) {
    // A refusal said on a terminal whose foreground is a job must not stop the relay
    // (TOSTOP): the write goes through instead.
    ::signal(SIGTTOU, SIG_IGN);
    auto engine = std::make_shared<policy::Engine>(profile);
    net::RelayConfig cfg;
    for (auto& l : ls) {
      auto role = l.role == sandbox::RelayListener::tcp       ? net::RelayListen::tcp
                  : l.role == sandbox::RelayListener::dns_udp ? net::RelayListen::dns_udp
                                                              : net::RelayListen::dns_tcp;
      cfg.listeners.push_back({role, l.fd.release()});
    }
    cfg.nat = s.sandbox->prepared().net_mode == sandbox::NetInterception::nftables;
    cfg.resolvers = resolvers;
    cfg.host_addresses = host_addresses;
    // A name is resolved when a connection to it on an allowed port would be allowed.
    cfg.dns_allowed = [engine, profile](const std::string& name) {
      policy::NetConnect probe = net::dns_question(name, profile->values);
      policy::Decision d = engine->decide(probe);
      if (d.allowed()) return true;
      audit_decision(probe, d);
      say_network_refusal(d);
      end_relay_at_denial_limit();
      return d.advisory;
    };
    cfg.allowed = [engine](const policy::NetConnect& flow) {
      policy::Decision d = engine->decide(flow);
      audit_decision(flow, d);
      say_network_refusal(d);
      if (!d.allowed() && !d.advisory) end_relay_at_denial_limit();
      return d.allowed() || d.advisory;
    };
    net::run_relay(std::move(cfg));
  }, {s.sink ? s.sink->fd() : -1});
}

}  // namespace lash::exec
