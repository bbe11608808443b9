// The `audit` builtin (cli.md): `audit tail [N]`, `audit search WORD`, each with
// --json (the raw JSON lines). Needs audit_access (audit_effects), checked by the
// policy gate before it runs.
#include "audit/log_reader.h"
#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/shell.h"
#include "policy/json_text.h"
#include "policy/session_select.h"

#include <cctype>
#include <ctime>
#include <optional>

namespace lash::builtins {
using exec::Shell;

namespace {

struct Filters {
  std::string since, profile, decision, kind;  // empty: any
  bool any() const { return !since.empty() || !profile.empty() || !decision.empty() || !kind.empty(); }
};

// --since takes an ISO time prefix ("2026-11-27", "2026-11-27T01:00") or an age
// ("30s", "10m", "2h", "7d"), turned into the UTC time that long ago. Records carry
// UTC times in ISO form, so a string comparison orders them.
std::optional<std::string> since_time(const std::string& v) {
  if (v.empty()) return std::nullopt;
  char unit = v.back();
  auto n = str::parse_int(std::string_view(v).substr(0, v.size() - 1));
  if (std::isdigit(static_cast<unsigned char>(v[0])) && v.size() >= 4 && v[4] == '-') return v;  // ISO
  if (!n || *n < 0) return std::nullopt;
  long long mult = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
  if (!mult || *n > (1LL << 40) / mult) return std::nullopt;
  std::time_t t = std::time(nullptr) - std::time_t(*n * mult);
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return std::nullopt;
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return std::string(buf);
}

bool keep(const std::string& line, const Filters& f) {
  if (!f.any()) return true;
  auto j = policy::Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  auto field = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
  if (!f.since.empty() && field("time") < f.since) return false;
  if (!f.profile.empty() && field("profile") != f.profile) return false;
  if (!f.decision.empty() && field("decision") != f.decision) return false;
  if (!f.kind.empty() && field("kind") != f.kind) return false;
  return true;
}

constexpr const char* kAuditUsage =
    "audit: usage: audit tail [--json] [FILTERS] [N] | audit search [--json] [FILTERS] WORD\n"
    "  FILTERS: --since TIME|AGE (2026-11-27T01:00, 10m, 2h, 7d) --profile NAME\n"
    "           --decision allow|deny|... --kind spawn|redirect|env|builtin|network|dns|...";

int bi_audit(Shell& sh, std::vector<std::string>& argv) {
  std::vector<std::string> in(argv.begin() + 1, argv.end());
  if (in.empty()) {
    sh.error(kAuditUsage);
    return 2;
  }
  std::string sub = in[0];
  bool json = false;
  Filters f;
  std::vector<std::string> args;
  for (size_t i = 1; i < in.size(); ++i) {
    const std::string& a = in[i];
    std::string* value = a == "--since" ? &f.since : a == "--profile" ? &f.profile : a == "--decision" ? &f.decision
                       : a == "--kind"  ? &f.kind : nullptr;
    if (a == "--json") {
      json = true;
    } else if (value) {
      if (i + 1 >= in.size()) {
        sh.error("audit: " + a + " needs a value");
        return 2;
      }
      *value = in[++i];
    } else if (a.size() > 1 && a[0] == '-' && !(sub == "tail" && str::parse_int(a))) {
      sh.error("audit: unknown option '" + a + "'\n" + kAuditUsage);
      return 2;
    } else {
      args.push_back(a);
    }
  }
  if (!f.since.empty()) {
    auto t = since_time(f.since);
    if (!t) {
      sh.error("audit: --since: not a time or an age: " + f.since);
      return 2;
    }
    f.since = *t;
  }
  std::string path = policy::lash_home() + "/audit.log";
  Result<std::vector<std::string>> lines = std::vector<std::string>{};
  if (sub == "tail") {
    size_t n = 10;
    if (args.size() > 1) {
      sh.error(kAuditUsage);
      return 2;
    }
    if (!args.empty()) {
      auto v = str::parse_int(args[0]);
      if (!v || *v < 0) {
        sh.error("audit: tail: not a count: " + args[0]);
        return 2;
      }
      n = size_t(*v);
    }
    // With filters, the last N records that pass them: the whole log is read.
    lines = f.any() ? audit::search(path, "") : audit::tail(path, n);
    if (lines && f.any()) {
      std::vector<std::string> kept;
      for (auto& l : *lines)
        if (keep(l, f)) kept.push_back(std::move(l));
      if (kept.size() > n) kept.erase(kept.begin(), kept.end() - long(n));
      *lines = std::move(kept);
    }
  } else if (sub == "search") {
    if (args.size() != 1) {
      sh.error(kAuditUsage);
      return 2;
    }
    lines = audit::search(path, args[0]);
    if (lines && f.any()) std::erase_if(*lines, [&](const std::string& l) { return !keep(l, f); });
  } else {
    sh.error("audit: unknown subcommand '" + sub + "'\n" + kAuditUsage);
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
