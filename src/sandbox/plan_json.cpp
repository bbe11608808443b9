// plan_json(): every field a reader needs to check a plan without parsing text. Paths
// and notes are bytes (escaped where not UTF-8, policy/json_text.h); ports are
// {"from", "to"} objects as everywhere in lash's JSON; sizes are integers (0 = none).
#include "sandbox/plan_json.h"

#include <cstdlib>

namespace lash::sandbox {
namespace {

using policy::Json;

Json strings(const std::vector<std::string>& v) {
  Json a = Json::array();
  for (const auto& s : v) a.push_back(policy::escape_bytes(s));
  return a;
}

Json ports(const std::vector<PortRange>& v) {
  Json a = Json::array();
  for (const PortRange& r : v) a.push_back(Json{{"from", r.first}, {"to", r.last}});
  return a;
}

const char* enforcement(Enforcement e) { return e == Enforcement::enforce ? "enforce" : "warn"; }

Json grant(const PathRule& r) {
  Json g = Json::object();
  policy::put_string(g, "path", r.path);
  g["read"] = (r.rights & rights::read) != 0;
  g["list"] = (r.rights & (rights::read | rights::list)) != 0;
  g["write"] = (r.rights & rights::write) != 0;
  g["execute"] = (r.rights & rights::execute) != 0;
  g["devices"] = (r.rights & rights::ioctl_dev) != 0;
  g["file"] = r.file;
  g["origin"] = r.origin;
  policy::put_string(g, "note", r.note);
  return g;
}

}  // namespace

Json plan_json(const SandboxPlan& p) {
  Json fs{{"restricted", p.restrict_fs}, {"enforcement", enforcement(p.fs_enforcement)}};
  Json grants = Json::array();
  if (p.restrict_fs)
    for (const PathRule& r : p.paths) grants.push_back(grant(r));
  fs["grants"] = std::move(grants);
  fs["protect"] = strings(p.protect);
  fs["noexec"] = strings(p.noexec);
  fs["refused"] = strings(p.fs_refusals);
  fs["mask_unix_sockets"] = p.mask_unix_sockets;
  if (p.tmpdir.empty())
    fs["tmpdir"] = nullptr;
  else
    policy::put_string(fs, "tmpdir", p.tmpdir);

  const char* mode = getenv("LASH_NET_INTERCEPTION");
  bool local = mode && std::string(mode) == "local";
  Json net{{"namespace", p.net_relay},
           {"interception", p.net_relay ? Json(local ? "local_route" : "nftables") : Json(nullptr)},
           {"enforcement", enforcement(p.net_enforcement)},
           {"kernel_ports", p.restrict_net},
           {"relay_ports", ports(p.relay_ports)},
           {"connect_ports", ports(p.connect_ports)},
           {"bind_ports", ports(p.bind_ports)},
           {"host_loopback_ports", ports(p.host_loopback_ports)}};

  Json env{{"deny", strings(p.env_deny)}, {"force", strings(p.env_force)}};
  env["pass"] = p.env_pass_set ? strings(p.env_pass) : Json(nullptr);

  return Json{{"filesystem", std::move(fs)},
              {"programs", Json{{"any", p.spawn_any}, {"deny_memfd_exec", p.deny_memfd_exec}}},
              {"processes", Json{{"own_namespaces", !p.empty()}}},
              {"network", std::move(net)},
              {"limits", Json{{"memory", p.limits.memory},
                              {"cpu_seconds", p.limits.cpu_seconds},
                              {"file_size", p.limits.file_size},
                              {"processes", p.limits.processes},
                              {"open_files", p.limits.open_files}}},
              {"environment", std::move(env)},
              {"hardening", Json{{"no_new_privs", p.no_new_privs},
                                 {"seccomp", p.seccomp},
                                 {"drop_capabilities", p.drop_capabilities},
                                 {"signal_scope", p.scope_signals},
                                 {"abstract_unix_scope", p.scope_abstract_unix},
                                 {"close_fds", p.close_fds}}},
              {"warnings", strings(p.warnings)},
              {"unenforced", strings(p.unenforced)}};
}

}  // namespace lash::sandbox
