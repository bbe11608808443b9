#include "net/flow_rules.h"

#include <cerrno>
#include <cstdlib>

#include "policy/host_match.h"

namespace lash::net {

policy::NetConnect dns_question(const std::string& name, const policy::Profile&) {
  // Port 0 and no address: a question, not a flow (policy/dns_question.h); the engine
  // decides it by the ports the profile allows.
  return policy::NetConnect{name, "", 0, ""};
}

policy::NetConnect tcp_flow(const std::string& name_for_ip, const std::string& ip, uint16_t port,
                            const std::string& claimed) {
  return policy::NetConnect{name_for_ip, ip, port, claimed};
}

policy::NetConnect unchecked_flow(const std::string& ip, uint16_t port) {
  return policy::NetConnect{ip, ip, port, ""};
}

policy::NetConnect udp_datagram(const std::string& host, const std::string& ip, uint16_t port) {
  policy::NetConnect n{host, ip, port, ""};
  n.udp = true;
  return n;
}

namespace {

Error bad_target(const std::string& target, const std::string& why) {
  return Error{"profile test --net: '" + target + "': " + why +
                   " (forms: HOST:PORT, IP:PORT, [IPv6]:PORT, udp:HOST:PORT, dns:NAME)",
               "", 0, {}};
}

// "HOST:PORT" or "[IPv6]:PORT" into HOST (brackets removed) and PORT.
bool split_host_port(const std::string& s, std::string& host, uint16_t& port) {
  size_t colon;
  if (!s.empty() && s.front() == '[') {
    size_t close = s.find(']');
    if (close == std::string::npos || close + 1 >= s.size() || s[close + 1] != ':') return false;
    host = s.substr(1, close - 1);
    colon = close + 1;
  } else {
    colon = s.rfind(':');
    if (colon == std::string::npos) return false;
    host = s.substr(0, colon);
    if (host.find(':') != std::string::npos) return false;  // IPv6 needs brackets
  }
  std::string p = s.substr(colon + 1);
  if (host.empty() || p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos)
    return false;
  unsigned long v = std::strtoul(p.c_str(), nullptr, 10);
  if (v == 0 || v > 65535) return false;
  port = uint16_t(v);
  return true;
}

}  // namespace

Result<std::vector<DryFlowStep>> dry_flow_steps(const std::string& target, const policy::Profile& p) {
  std::vector<DryFlowStep> out;
  if (target.rfind("dns:", 0) == 0) {
    std::string name = policy::normalize_host(target.substr(4));
    if (!policy::valid_host_name(name)) return bad_target(target, "not a host name");
    out.push_back({dns_question(name, p), "DNS question for " + name + ", NXDOMAIN when refused"});
    return out;
  }
  bool udp = target.rfind("udp:", 0) == 0;
  std::string host;
  uint16_t port = 0;
  if (!split_host_port(udp ? target.substr(4) : target, host, port)) return bad_target(target, "no HOST:PORT");
  bool literal = policy::is_ip_literal(host);
  std::string name = literal ? host : policy::normalize_host(host);
  if (!literal && !policy::valid_host_name(name)) return bad_target(target, "not a host name or IP literal");
  if (udp) {
    if (port == 53)
      return bad_target(target, "UDP port 53 is DNS, answered by lash's relay whatever the address; ask dns:NAME");
    out.push_back({udp_datagram(literal ? "" : name, literal ? host : "", port), "UDP datagram"});
    return out;
  }
  if (literal) {
    // No DNS: the relay's address book has no name for it, so the address is the host;
    // on 443 a client sends no name for an IP literal (or the literal, which counts as none).
    if (port == 443) out.push_back({unchecked_flow(host, port), "TLS to an IP literal: no name to check"});
    else if (port == 80) out.push_back({tcp_flow(host, host, port, host), "HTTP with Host " + host});
    else out.push_back({tcp_flow(host, host, port, ""), "TCP by address"});
    return out;
  }
  out.push_back({dns_question(name, p), "DNS question for " + name + ", NXDOMAIN when refused"});
  // The name's addresses are then bound to it; the flow carries the name it claims.
  std::string claimed = port == 443 || port == 80 ? name : "";
  const char* what = port == 443 ? "TLS with SNI " : port == 80 ? "HTTP with Host " : "TCP to the address of ";
  out.push_back({tcp_flow(name, "", port, claimed), what + name});
  return out;
}

}  // namespace lash::net
