#include "policy/action.h"
#include "policy/dns_question.h"

namespace lash::policy {

std::string_view redirect_op(RedirectMode m) {
  switch (m) {
    case RedirectMode::read: return "<";
    case RedirectMode::write: return ">";
    case RedirectMode::append: return ">>";
    case RedirectMode::clobber: return ">|";
    case RedirectMode::read_write: return "<>";
    case RedirectMode::write_both: return "&>";
    case RedirectMode::append_both: return "&>>";
  }
  return "?";
}

bool is_write(RedirectMode m) { return m != RedirectMode::read; }

std::string_view env_op_name(EnvOp op) {
  switch (op) {
    case EnvOp::set: return "set";
    case EnvOp::unset: return "unset";
    case EnvOp::export_var: return "export";
    case EnvOp::readonly: return "readonly";
  }
  return "?";
}

std::string_view capability_name(Capability c) {
  switch (c) {
    case Capability::plugin_access: return "plugin_access";
    case Capability::config_modify: return "config_modify";
    case Capability::session_manage: return "session_manage";
    case Capability::job_control_own: return "job_control_own";
    case Capability::job_control_others: return "job_control_others";
    case Capability::audit_access: return "audit_access";
    case Capability::profile_manage: return "profile_manage";
    case Capability::profile_switch: return "profile_switch";
  }
  return "?";
}

namespace {
struct KindName {
  std::string_view operator()(const Spawn&) const { return "spawn"; }
  std::string_view operator()(const Redirect&) const { return "redirect"; }
  std::string_view operator()(const EnvChange&) const { return "env"; }
  std::string_view operator()(const PluginCall&) const { return "plugin"; }
  std::string_view operator()(const Builtin&) const { return "builtin"; }
  std::string_view operator()(const NetConnect& n) const { return is_dns_question(n) ? "dns" : "network"; }
};
struct Target {
  std::string operator()(const Spawn& s) const { return s.argv0; }
  std::string operator()(const Redirect& r) const { return r.path; }
  std::string operator()(const EnvChange& e) const { return e.name; }
  std::string operator()(const PluginCall& p) const {
    return p.method.empty() ? p.plugin : p.plugin + "." + p.method;
  }
  std::string operator()(const Builtin& b) const {
    return b.name.empty() ? std::string(capability_name(b.capability)) : b.name;
  }
  std::string operator()(const NetConnect& n) const {
    std::string h = !n.host.empty() ? n.host : !n.sni.empty() ? n.sni : n.ip;
    if (is_dns_question(n)) return h;
    if (h.find(':') != std::string::npos) h = "[" + h + "]";
    return h + ":" + std::to_string(n.port);
  }
};
}  // namespace

std::string_view kind_name(const Action& a) { return std::visit(KindName{}, a); }
std::string target_of(const Action& a) { return std::visit(Target{}, a); }

}  // namespace lash::policy
