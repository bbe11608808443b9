// The `audit` builtin (cli.md): `audit tail [N]`, `audit search WORD`, each with
// --json (the raw JSON lines). Needs audit_access (audit_effects), checked by the
// policy gate before it runs.
#include "audit/log_reader.h"
#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/shell.h"
#include "policy/session_select.h"

namespace lash::builtins {
using exec::Shell;

namespace {

int bi_audit(Shell& sh, std::vector<std::string>& argv) {
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (args.empty()) {
    sh.error("audit: usage: audit tail [--json] [N] | audit search [--json] WORD");
    return 2;
  }
  std::string sub = args[0];
  args.erase(args.begin());
  bool json = !args.empty() && args[0] == "--json";
  if (json) args.erase(args.begin());
  std::string path = policy::lash_home() + "/audit.log";
  Result<std::vector<std::string>> lines = std::vector<std::string>{};
  if (sub == "tail") {
    size_t n = 10;
    if (!args.empty()) {
      auto v = str::parse_int(args[0]);
      if (!v || *v < 0) {
        sh.error("audit: tail: not a count: " + args[0]);
        return 2;
      }
      n = size_t(*v);
    }
    lines = audit::tail(path, n);
  } else if (sub == "search") {
    if (args.size() != 1) {
      sh.error("audit: usage: audit search [--json] WORD");
      return 2;
    }
    lines = audit::search(path, args[0]);
  } else {
    sh.error("audit: unknown subcommand '" + sub + "'");
    return 2;
  }
  if (!lines) {
    sh.error("audit: " + lines.error().message());
    return 1;
  }
  for (auto& l : *lines) sh.out() << (json ? l : audit::render_text(l)) << '\n';
  return 0;
}

// Reading the audit log needs audit_access, whatever the subcommand.
exec::BuiltinEffects audit_effects(Shell&, const std::vector<std::string>&) {
  exec::BuiltinEffects e;
  e.actions.push_back({policy::Builtin{policy::Capability::audit_access, "audit"}});
  return e;
}

constexpr exec::BuiltinDef kAudit[] = {
    {"audit", bi_audit, audit_effects, exec::BuiltinKind::regular, "read the audit log"},
};

}  // namespace

void register_audit() { exec::register_builtins(kAudit); }

}  // namespace lash::builtins
