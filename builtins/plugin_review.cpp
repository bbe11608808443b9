#include "builtins/plugin_review.h"

#include <fnmatch.h>

#include "builtins/plugin_session.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "policy/engine.h"
#include "sandbox/plan.h"

namespace lash::builtins {

namespace {

using namespace sandbox::rights;

bool at_or_below(const std::string& path, const std::string& dir) {
  return dir == "/" || path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

std::string rights_text(unsigned r) {
  std::string out;
  if (r & read) out += "read";
  if (r & write) out += out.empty() ? "write" : ",write";
  if (r & execute) out += out.empty() ? "exec" : ",exec";
  return out.empty() ? "none" : out;
}

struct Grant {
  std::string path, what;
  unsigned asked = 0, effective = 0;
  std::vector<std::string> below;  // where the session grants something under PATH
};

struct PluginView {
  const plugin::Found* found = nullptr;
  policy::Decision decision;
  std::vector<Grant> grants;
  std::vector<std::pair<std::string, bool>> hosts;  // asked, and whether the session allows it
};

std::vector<PluginView> views(exec::Shell& sh, const std::shared_ptr<const policy::ResolvedProfile>& p) {
  std::vector<PluginView> out;
  const auto& d = discovered();
  if (d.plugins.empty()) return out;
  policy::Engine engine(p, policy::make_session_facts(*p, exec::session_env_of(sh)));
  sandbox::SandboxPlan plan = exec::sandbox_review_plan(sh, *p);
  plugin::StartContext ctx = start_context(sh);
  for (const auto& f : d.plugins) {
    PluginView v;
    v.found = &f;
    v.decision = engine.decide(policy::PluginCall{f.manifest.name, ""});
    for (auto& [path, what] : plugin::Host::effective_grants(f.manifest, ctx)) {
      Grant g{path, what, (what == "read_write" || what == "device") ? (read | write) : (read | execute), 0, {}};
      unsigned session = plan.restrict_fs ? 0U : (read | write | execute);
      for (const auto& r : plan.paths) {
        if (r.file ? r.path == path : at_or_below(path, r.path)) session |= r.rights;
        else if (at_or_below(r.path, path) && (r.rights & g.asked) && g.below.size() < 4) g.below.push_back(r.path);
      }
      g.effective = g.asked & session;
      v.grants.push_back(std::move(g));
    }
    const auto& pv = p->values;
    for (const auto& h : f.manifest.access.allow_hosts) {
      bool ok = !pv.block_all_others.value;
      for (const auto& pat : pv.allow_hosts.value) ok = ok || ::fnmatch(pat.c_str(), h.c_str(), 0) == 0;
      v.hosts.push_back({h, ok});
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::string plugin_grants_text(exec::Shell& sh, const std::shared_ptr<const policy::ResolvedProfile>& p) {
  auto vs = views(sh, p);
  if (vs.empty()) return {};
  std::string out = "\n[plugins: each one's effective grants under " + p->name + " (its manifest narrowed to the session)]\n";
  for (const auto& v : vs) {
    const plugin::Manifest& m = v.found->manifest;
    out += "  " + m.name + " (" + std::string(plugin::source_name(v.found->source)) + "): ";
    if (!v.decision.allowed()) {
      out += "not callable (" + v.decision.decided_by.key + ")\n";
      continue;
    }
    out += "callable\n";
    for (const auto& g : v.grants) {
      out += "    " + rights_text(g.effective) + "  " + g.path;
      if (g.effective != g.asked) out += "  (asks " + rights_text(g.asked) + ")";
      if (!g.effective && !g.below.empty()) {
        out += "; only below it, where the session grants:";
        for (const auto& b : g.below) out += " " + b;
      }
      out += "\n";
    }
    if (v.hosts.empty()) out += "    network: none (no TCP connections)\n";
    for (const auto& [h, ok] : v.hosts) out += "    network: " + h + (ok ? "" : "  (refused: not allowed by the session)") + "\n";
  }
  return out;
}

policy::Json plugin_grants_json(exec::Shell& sh, const std::shared_ptr<const policy::ResolvedProfile>& p) {
  policy::Json arr = policy::Json::array();
  for (const auto& v : views(sh, p)) {
    policy::Json grants = policy::Json::array();
    for (const auto& g : v.grants)
      grants.push_back({{"path", policy::escape_bytes(g.path)}, {"grant", g.what}, {"asks", rights_text(g.asked)},
                        {"effective", rights_text(g.effective)}, {"below", g.below}});
    policy::Json hosts = policy::Json::array();
    for (const auto& [h, ok] : v.hosts) hosts.push_back({{"host", h}, {"allowed", ok}});
    arr.push_back({{"name", v.found->manifest.name},
                   {"source", std::string(plugin::source_name(v.found->source))},
                   {"callable", v.decision.allowed()},
                   {"key", v.decision.decided_by.key},
                   {"grants", std::move(grants)},
                   {"hosts", std::move(hosts)}});
  }
  return arr;
}

}  // namespace lash::builtins
