#include "policy/report.h"
#include "policy/dns_question.h"

namespace lash::policy {
namespace {

struct Details {
  Json& o;
  void operator()(const Spawn& s) const {
    if (!s.resolved_path.empty()) put_string(o, "resolved", s.resolved_path);
  }
  void operator()(const Redirect& r) const { o["mode"] = std::string(redirect_op(r.mode)); }
  void operator()(const EnvChange& e) const { o["op"] = std::string(env_op_name(e.op)); }
  void operator()(const PluginCall& p) const {
    put_string(o, "plugin", p.plugin);
    put_string(o, "method", p.method);
  }
  void operator()(const Builtin& b) const {
    o["capability"] = std::string(capability_name(b.capability));
  }
  void operator()(const NetConnect& n) const {
    if (!n.host.empty()) put_string(o, "host", n.host);
    if (!n.ip.empty()) put_string(o, "ip", n.ip);
    if (!is_dns_question(n)) o["port"] = n.port;  // a DNS question has no port of its own
    if (!n.sni.empty()) put_string(o, "sni", n.sni);
    if (n.udp) o["protocol"] = "udp";
  }
};

}  // namespace

Json action_json(const Action& a, const Decision& d) {
  Json o = Json::object();
  o["kind"] = std::string(kind_name(a));
  put_string(o, "target", target_of(a));
  std::visit(Details{o}, a);
  o["decision"] = std::string(verdict_name(d.verdict));
  if (d.decided_by.key.empty()) {
    o["key"] = nullptr;
  } else {
    o["key"] = d.decided_by.key;
    put_string(o, "source", d.decided_by.source_text());
  }
  if (d.verdict == Verdict::deny) {
    put_string(o, "problem", d.problem);
    put_string(o, "suggestion", d.suggestion);
    if (d.advisory) o["advisory"] = true;
  }
  return o;
}

Decision dynamic_decision() {
  Decision d;
  d.verdict = Verdict::dynamic;
  return d;
}

}  // namespace lash::policy
