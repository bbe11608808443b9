// The `plugin` builtin (cli.md): `plugin list`, `plugin info NAME`,
// `plugin call [--raw] NAME METHOD [key=value...|'{json}']`. A call is a
// policy::PluginCall (plugin_access, plugin_allowlist), decided by the policy gate
// before the builtin runs and reported by `profile test` like any other action.
#include <unistd.h>

#include "base/strutil.h"
#include "builtins/families.h"
#include "builtins/plugin_session.h"
#include "exec/policy_gate.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "plugin/discovery.h"
#include "plugin/host.h"
#include "policy/session_select.h"
#include "policy/user_config.h"

namespace lash::builtins {
using exec::Shell;
using nlohmann::json;

namespace {

// plugin.timeout of the config (user_config.h), else 10 s.
int plugin_timeout_seconds() {
  auto v = policy::config_value("plugin.timeout");
  if (v)
    if (auto n = str::parse_int(v->value); n && *n >= 1) return int(*n);
  return plugin::kDefaultTimeoutSeconds;
}

// Under a profile lash.conf assigned, user plugins are not loaded.
bool session_assigned() {
  exec::Session* s = exec::current_session();
  return s && s->selection.assigned;
}

}  // namespace

const plugin::Discovered& discovered() {
  // Found once per session: the directories are fixed, and a plugin appearing in the
  // middle of a session is for the next one.
  static const plugin::Discovered d = plugin::discover(plugin::session_dirs(session_assigned()));
  return d;
}

plugin::StartContext start_context(Shell& sh) {
  plugin::StartContext ctx;
  ctx.prepared = &sh.prepared();
  if (sh.gate && sh.gate->child_env)
    ctx.envp = sh.gate->child_env->build(sh.vars.environment(), sh.gate->always_env);
  else
    ctx.envp = sh.vars.environment();
  ctx.lash_home = policy::lash_home();
  std::erase_if(ctx.envp, [](const std::string& e) { return e.rfind("LASH_HOME=", 0) == 0; });
  ctx.envp.push_back("LASH_HOME=" + ctx.lash_home);
  exec::Session* s = exec::current_session();
  if (s) {
    ctx.home = s->env.home;
    ctx.cwd = s->env.start_dir;
  } else {
    const std::string* h = sh.vars.get("HOME");
    ctx.home = h ? *h : "";
    char buf[4096];
    ctx.cwd = ::getcwd(buf, sizeof buf) ? buf : "/";
  }
  return ctx;
}

namespace {

void print_info(Shell& sh, const plugin::Found& f) {
  const plugin::Manifest& m = f.manifest;
  auto& o = sh.out();
  o << "name:        " << m.name << '\n'
    << "version:     " << m.version << '\n'
    << "source:      " << plugin::source_name(f.source) << " (" << m.file << ")\n"
    << "executable:  " << m.executable << '\n'
    << "description: " << m.description << '\n'
    << "methods:\n";
  for (const auto& meth : m.methods) {
    o << "  " << meth.name << '(';
    for (size_t i = 0; i < meth.params.size(); ++i) o << (i ? ", " : "") << meth.params[i];
    o << ")  " << meth.description << '\n';
  }
  o << "access (only ever narrower than the session's sandbox):\n";
  for (auto& [path, what] : plugin::Host::effective_grants(m, start_context(sh)))
    o << "  " << what << ' ' << path << '\n';
  o << "  network " << (m.access.allow_hosts.empty() ? std::string("none (no TCP connections)") : "");
  for (size_t i = 0; i < m.access.allow_hosts.size(); ++i) o << (i ? ", " : "") << m.access.allow_hosts[i];
  o << '\n';
}

void print_result(Shell& sh, const json& result, bool raw) {
  if (raw && result.is_string()) {
    const std::string& s = result.get_ref<const std::string&>();
    sh.out() << s;
    if (s.empty() || s.back() != '\n') sh.out() << '\n';
    return;
  }
  if (raw && result.is_array()) {
    for (const auto& e : result) sh.out() << (e.is_string() ? e.get<std::string>() : e.dump(-1, ' ', false, json::error_handler_t::replace)) << '\n';
    return;
  }
  // Pretty JSON; non-ASCII escaped so a reply cannot write terminal controls raw.
  sh.out() << result.dump(raw ? -1 : 2, ' ', true, json::error_handler_t::replace) << '\n';
}

int plugin_call(Shell& sh, std::vector<std::string> args) {
  bool raw = !args.empty() && args[0] == "--raw";
  if (raw) args.erase(args.begin());
  if (args.size() < 2) {
    sh.error("plugin: usage: plugin call [--raw] NAME METHOD [key=value...|'{json}']");
    return 2;
  }
  const plugin::Found* f = discovered().find(args[0]);
  if (!f) {
    sh.error("plugin: no plugin named '" + args[0] + "' (see 'plugin list')");
    return 1;
  }
  const plugin::Method* meth = f->manifest.find(args[1]);
  if (!meth) {
    sh.error("plugin: " + args[0] + ": no method '" + args[1] + "' (see 'plugin info " + args[0] + "')");
    return 1;
  }
  auto params = plugin::params_from_words({args.begin() + 2, args.end()});
  if (!params) {
    sh.error("plugin: " + args[0] + "." + args[1] + ": " + params.error().what);
    return 2;
  }
  // A plugin is one of the session's programs: where the session may run none (its
  // sandbox cannot be made here, or its audit log cannot be written), it starts none.
  std::string refusal = sh.services().refusal();
  if (refusal.empty() && sh.gate && sh.gate->audit_failure) refusal = sh.gate->audit_failure();
  if (!refusal.empty()) {
    sh.error("plugin: " + args[0] + "." + args[1] + ": not started: " + refusal);
    return 126;
  }
  int timeout_s = f->manifest.timeout_seconds ? f->manifest.timeout_seconds : plugin_timeout_seconds();
  auto out = plugin::session_host().call(*f, start_context(sh), meth->name, *params, timeout_s * 1000);
  if (!out.ok) {
    sh.error("plugin: " + args[0] + "." + args[1] + ": " + out.error);
    return 1;
  }
  if (out.reply.is_error) {
    std::string msg = out.reply.error_message;
    for (char& c : msg)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    sh.error("plugin: " + args[0] + "." + args[1] + ": " + msg + " (code " + std::to_string(out.reply.error_code) + ")");
    return 1;
  }
  print_result(sh, out.reply.result, raw);
  return 0;
}

int bi_plugin(Shell& sh, std::vector<std::string>& argv) {
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (args.empty()) {
    sh.error("plugin: usage: plugin list | plugin info NAME | plugin call [--raw] NAME METHOD [ARGS...]");
    return 2;
  }
  std::string sub = args[0];
  args.erase(args.begin());
  const auto& d = discovered();
  if (sub == "list") {
    for (const auto& w : d.warnings) sh.err() << "lash: plugin: " << w << '\n';
    for (const auto& f : d.plugins)
      sh.out() << f.manifest.name << '\t' << f.manifest.version << '\t' << plugin::source_name(f.source) << '\t'
               << f.manifest.description << '\n';
    return 0;
  }
  if (sub == "info") {
    if (args.size() != 1) {
      sh.error("plugin: usage: plugin info NAME");
      return 2;
    }
    const plugin::Found* f = d.find(args[0]);
    if (!f) {
      sh.error("plugin: no plugin named '" + args[0] + "' (see 'plugin list')");
      return 1;
    }
    print_info(sh, *f);
    return 0;
  }
  if (sub == "call") return plugin_call(sh, std::move(args));
  sh.error("plugin: unknown subcommand '" + sub + "'");
  return 2;
}

// `plugin call [--raw] NAME METHOD ...` calls NAME.METHOD: one PluginCall, decided
// before the builtin runs (and by `profile test`). list and info only read manifests.
exec::BuiltinEffects plugin_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  size_t i = 1;
  if (i < argv.size() && argv[i] == "call") {
    ++i;
    if (i < argv.size() && argv[i] == "--raw") ++i;
    if (i + 1 < argv.size()) e.actions.push_back({policy::PluginCall{argv[i], argv[i + 1]}});
  }
  return e;
}

constexpr exec::BuiltinDef kPlugin[] = {
    {"plugin", bi_plugin, plugin_effects, exec::BuiltinKind::regular, "list, describe and call plugins"},
};

}  // namespace

void register_plugin() { exec::register_builtins(kPlugin); }

}  // namespace lash::builtins
