#include "exec/net_relay_start.h"

#include "exec/session.h"
#include "net/flow_rules.h"
#include "net/relay.h"
#include "policy/engine.h"

namespace lash::exec {

Result<void> start_network_relay(Session& s, std::shared_ptr<const policy::ResolvedProfile> profile) {
  if (!s.sandbox) return {};
  // Read now: the relay has no filesystem access once confined.
  auto resolvers = net::read_resolvers();
  auto host_addresses = net::read_host_addresses();
  return s.sandbox->start_relay([&](std::vector<sandbox::RelayListener>& ls) {
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
      return d.advisory;
    };
    cfg.allowed = [engine](const policy::NetConnect& flow) {
      policy::Decision d = engine->decide(flow);
      audit_decision(flow, d);
      return d.allowed() || d.advisory;
    };
    net::run_relay(std::move(cfg));
  }, {s.sink ? s.sink->fd() : -1});
}

}  // namespace lash::exec
