// The `config` builtin (cli.md): `config get KEY`, `config list [--keys]`,
// `config set KEY VALUE`, `config unset KEY` over $LASH_HOME/config (user_config.h).
// set and unset need config_modify (checked by the policy gate before the builtin
// runs, audited, planned by `profile test`); get and list only read.
#include "builtins/families.h"
#include "exec/shell.h"
#include "policy/user_config.h"

namespace lash::builtins {
using exec::Shell;

namespace {

int usage(Shell& sh) {
  sh.error("config: usage: config get KEY | config list [--keys] | config set KEY VALUE | config unset KEY");
  return 2;
}

int bi_config(Shell& sh, std::vector<std::string>& argv) {
  std::vector<std::string> a(argv.begin() + 1, argv.end());
  if (a.empty()) return usage(sh);
  const std::string& sub = a[0];
  if (sub == "list") {
    if (a.size() == 2 && a[1] == "--keys") {
      for (const auto& k : policy::config_keys()) sh.out() << k.name << '\t' << k.kind << '\t' << k.help << '\n';
      return 0;
    }
    if (a.size() != 1) return usage(sh);
    std::vector<std::string> warnings;
    auto values = policy::effective_config(&warnings);
    for (auto& w : warnings) sh.err() << "lash: config: " << w << '\n';
    for (const auto& k : policy::config_keys())
      for (const auto& v : values)
        if (v.key == k.name) sh.out() << v.key << " = " << v.value << "\t(" << v.file << ':' << std::to_string(v.line) << ")\n";
    return 0;
  }
  if (sub == "get") {
    if (a.size() != 2) return usage(sh);
    if (!policy::find_config_key(a[1])) {
      sh.error("config: unknown key '" + a[1] + "' (see 'config list --keys')");
      return 2;
    }
    auto v = policy::config_value(a[1]);
    if (!v) return 1;
    sh.out() << v->value << '\n';
    return 0;
  }
  if (sub == "set" || sub == "unset") {
    if (a.size() != (sub == "set" ? 3u : 2u)) return usage(sh);
    std::optional<std::string> value;
    if (sub == "set") {
      auto v = policy::validate_config_value(a[1], a[2]);
      if (!v) {
        sh.error("config: " + v.error().message());
        return 2;
      }
      value = *v;
    } else if (!policy::find_config_key(a[1])) {
      sh.error("config: unknown key '" + a[1] + "' (see 'config list --keys')");
      return 2;
    }
    if (auto r = policy::update_user_config(a[1], value); !r) {
      sh.error("config: " + r.error().message());
      return 1;
    }
    if (auto eff = policy::config_value(a[1]); eff && eff->system)
      sh.err() << "lash: config: note: " << eff->file << ':' << std::to_string(eff->line) << " sets " << a[1]
               << " for every user; your value does not apply\n";
    return 0;
  }
  return usage(sh);
}

// set and unset change $LASH_HOME/config: config_modify. profile.default also chooses
// the profile of later sessions (a restricted session could hand the next plain `lash`
// the default profile), as `profile create` can by shadowing a name: profile_manage
// too, an administrator's capability.
exec::BuiltinEffects config_effects(Shell&, const std::vector<std::string>& argv) {
  exec::BuiltinEffects e;
  if (argv.size() > 1 && (argv[1] == "set" || argv[1] == "unset")) {
    e.actions.push_back({policy::Builtin{policy::Capability::config_modify, "config " + argv[1]}});
    if (argv.size() > 2 && argv[2] == "profile.default")
      e.actions.push_back({policy::Builtin{policy::Capability::profile_manage, "config " + argv[1] + " profile.default"}});
  }
  return e;
}

constexpr exec::BuiltinDef kConfig[] = {
    {"config", bi_config, config_effects, exec::BuiltinKind::regular, "read and change lash's settings"},
};

}  // namespace

void register_config() { exec::register_builtins(kConfig); }

}  // namespace lash::builtins
