// The `profile` builtin (cli.md): list, review, permissions, test, create, edit,
// reload, switch, validate. Capability checks (profile_manage, profile_switch) are
// declared by profile_effects and made by the policy gate before this runs, like any
// other action.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <variant>

#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/dry_run.h"
#include "exec/stack_guard.h"
#include "exec/policy_gate.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "exec/user_files.h"
#include "policy/explain.h"
#include "policy/ini_loader.h"
#include "policy/report.h"
#include "policy/resolver.h"
#include "policy/review.h"
#include "policy/session_facts.h"
#include "policy/session_select.h"
#include "policy/store.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::Shell;

namespace {

constexpr const char* kUsage =
    "usage: profile list|review|permissions|test|create|edit|reload|switch|validate ...";

// The store the session selects from: without the user directory when the session's
// profile was assigned by the system policy (a user file can never shadow it).
bool user_dir_allowed() {
  exec::Session* s = exec::current_session();
  return !(s && s->selection.assigned);
}

Result<std::shared_ptr<const policy::ResolvedProfile>> load(const std::string& name) {
  policy::SearchPath store = policy::session_search_path();
  policy::ResolveOptions opts;
  opts.include_user = user_dir_allowed();
  return policy::load_resolved(store, name, opts);
}

std::string active_name() {
  exec::Session* s = exec::current_session();
  return s && s->active ? s->active->name : std::string("default");
}

void print_json(Shell& sh, const policy::Json& j) { sh.out() << j.dump(2) << '\n'; }

bool take_json(std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "--json") {
    args.erase(args.begin());
    return true;
  }
  return false;
}

int cmd_list(Shell& sh, std::vector<std::string> args) {
  bool json = take_json(args);
  policy::SearchPath store = policy::session_search_path();
  auto entries = policy::list_profiles(store, user_dir_allowed());
  std::string active = active_name();
  if (json) {
    policy::Json j = policy::list_json(entries, active);
    j["active"] = active;
    print_json(sh, j);
  } else
    sh.out() << policy::list_text(entries, active);
  return 0;
}

int cmd_review(Shell& sh, std::vector<std::string> args, bool permissions) {
  bool json = take_json(args);
  std::string name = args.empty() ? active_name() : args[0];
  if (args.empty() && !permissions) {
    sh.error("profile review: usage: profile review [--json] NAME");
    return 2;
  }
  auto p = load(name);
  if (!p) {
    sh.error("profile: " + p.error().message());
    return 2;
  }
  if (permissions) {
    if (json)
      print_json(sh, policy::permissions_json(**p));
    else
      sh.out() << policy::permissions_text(**p);
    return 0;
  }
  if (json) {
    policy::Json j = policy::review_json(**p);
    j["sandbox"] = exec::sandbox_review_json(sh, **p);
    print_json(sh, j);
  } else {
    sh.out() << policy::review_text(**p) << exec::sandbox_review_text(sh, **p);
  }
  return 0;
}

int cmd_test(Shell& sh, std::vector<std::string> args) {
  bool json = take_json(args);
  if (args.size() < 2) {
    sh.error("profile test: usage: profile test [--json] NAME CMDLINE...");
    return 2;
  }
  auto p = load(args[0]);
  if (!p) {
    sh.error("profile: " + p.error().message());
    return 2;
  }
  std::string text;
  for (size_t i = 1; i < args.size(); ++i) {
    if (i > 1) text += ' ';
    text += args[i];
  }
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, exec::stack_bytes_left());
  po.filename = "profile test";
  auto parsed = syntax::parse(text, po);
  if (parsed.error) {
    sh.error(parsed.error->render());
    return 2;
  }
  policy::Engine engine(*p, policy::make_session_facts(**p, exec::session_env_of(sh)));
  auto actions = exec::dry_run(sh, *parsed.program, engine);
  // What the policy allows, the sandbox may still refuse, as the real run does: every
  // program, and every file the shell opens for the user (redirections). A dynamic
  // command word stays dynamic: it may name a builtin, which runs.
  auto sandboxed_what = [](const policy::Action& action) -> std::optional<std::string> {
    if (const auto* s = std::get_if<policy::Spawn>(&action)) return "run '" + s->argv0 + "'";
    if (std::holds_alternative<policy::Redirect>(action)) return "open '" + policy::target_of(action) + "'";
    return std::nullopt;
  };
  bool affected = std::any_of(actions.begin(), actions.end(), [&](const exec::CheckedAction& a) {
    return a.decision.verdict == policy::Verdict::allow && sandboxed_what(a.planned.action);
  });
  if (std::optional<std::string> refusal = affected ? exec::sandbox_refusal_for(sh, **p) : std::nullopt)
    for (auto& a : actions)
      if (auto what = sandboxed_what(a.planned.action); what && a.decision.verdict == policy::Verdict::allow)
        a.decision = exec::sandbox_refusal_decision((*p)->name, *what, *refusal);
  bool denied = false, dynamic = false;
  for (auto& a : actions) {
    if (a.decision.verdict == policy::Verdict::deny) denied = true;
    if (a.decision.verdict == policy::Verdict::dynamic) dynamic = true;
  }
  const char* verdict = denied ? "deny" : dynamic ? "dynamic" : "allow";
  if (json) {
    policy::Json arr = policy::Json::array();
    for (auto& a : actions) arr.push_back(policy::action_json(a.planned.action, a.decision));
    print_json(sh, policy::Json{{"profile", (*p)->name}, {"verdict", verdict}, {"actions", std::move(arr)}});
  } else {
    for (auto& a : actions) {
      sh.out() << policy::explain::action_line(a.planned.action, a.decision) << '\n';
      if (a.decision.verdict == policy::Verdict::deny) sh.out() << policy::explain::refusal_lines(a.decision);
    }
    sh.out() << (denied ? "denied" : dynamic ? "dynamic" : "allowed") << '\n';
  }
  return denied || dynamic ? 1 : 0;
}

bool valid_name(const std::string& n) {
  if (n.empty() || n.size() > 64) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

std::string user_profile_path(const std::string& name) { return policy::lash_home() + "/profiles/" + name + ".profile"; }

bool write_new_file(const std::string& path, const std::string& text, std::string& err) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    err = std::strerror(errno);
    return false;
  }
  bool ok = exec::write_all(fd, text);
  if (::close(fd) != 0) ok = false;
  if (!ok) err = "write failed";
  return ok;
}

int cmd_create(Shell& sh, std::vector<std::string> args) {
  if (args.size() != 1 || !valid_name(args[0])) {
    sh.error("profile create: usage: profile create NAME (NAME: letters, digits, _ and -)");
    return 2;
  }
  const std::string& name = args[0];
  std::string dir = policy::lash_home() + "/profiles";
  ::mkdir(policy::lash_home().c_str(), 0700);
  ::mkdir(dir.c_str(), 0700);
  std::string text = policy::profile_template(name, active_name());
  std::string err;
  if (!write_new_file(user_profile_path(name), text, err)) {
    sh.error("profile create: " + user_profile_path(name) + ": " + err);
    return 1;
  }
  sh.out() << user_profile_path(name) << '\n';
  return 0;
}

int cmd_switch(Shell& sh, std::vector<std::string> args, bool reload) {
  std::string name = reload ? active_name() : (args.empty() ? "" : args[0]);
  if (name.empty()) {
    sh.error("profile switch: usage: profile switch NAME");
    return 2;
  }
  auto p = load(name);
  if (!p) {
    // An invalid file keeps the profile in force.
    sh.error("profile: " + p.error().message() + " (keeping '" + active_name() + "')");
    return 1;
  }
  exec::activate_profile(sh, *p);
  return 0;
}

int cmd_edit(Shell& sh, std::vector<std::string> args) {
  if (args.size() != 1 || !valid_name(args[0])) {
    sh.error("profile edit: usage: profile edit NAME");
    return 2;
  }
  return exec::edit_profile_file(sh, args[0], user_profile_path(args[0]));
}

// The parent a file names must load, as it would when the file is used as a user
// profile (a parent of its own name is the one below the user directory).
bool check_parent(Shell& sh, const policy::LoadedProfile& lp) {
  const auto& from = lp.profile.inherit_from;
  if (!from.set) return true;
  policy::SearchPath store = policy::session_search_path();
  bool same = from.value == lp.name;
  auto file = policy::find_profile(store, from.value, user_dir_allowed(),
                                   same ? policy::Source::system : policy::Source::user);
  std::string why;
  if (!file) {
    why = same ? "no system or built-in profile '" + from.value + "' to extend" : file.error().message();
  } else if (!same) {
    auto parent = load(from.value);
    if (!parent) why = parent.error().message();
  }
  if (why.empty()) return true;
  sh.err() << from.from.text() << ": from: parent '" << from.value << "' cannot be loaded: " << why << '\n';
  return false;
}

// An allowlist or denylist entry that names no program here is most likely a typo or
// a tool not installed: said, but the file is still valid (another machine may have it).
void warn_unresolved_programs(Shell& sh, const policy::LoadedProfile& lp) {
  policy::SessionEnv env = exec::session_env_of(sh);
  auto names_nothing = [&](const std::string& e) {
    std::string path = e;
    if (e.rfind("~/", 0) == 0) path = env.home.empty() ? std::string() : env.home + e.substr(1);
    if (!path.empty() && path[0] == '/') return ::access(path.c_str(), X_OK) != 0;
    if (path.empty()) return true;
    for (const auto& dir : str::split(env.path_var, ':')) {
      std::string c = (dir.empty() ? std::string(".") : dir) + "/" + e;
      struct stat st;
      if (::stat(c.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(c.c_str(), X_OK) == 0) return false;
    }
    return true;
  };
  for (const auto* f : {&lp.profile.spawn_allowlist, &lp.profile.spawn_denylist})
    for (const auto& e : f->value)
      if (names_nothing(e))
        sh.err() << f->from.text() << ": " << (f == &lp.profile.spawn_allowlist ? "spawn_allowlist" : "spawn_denylist")
                 << ": warning: '" << e << "' names no program here"
                 << (e.find('/') == std::string::npos ? " (not found on PATH)" : " (no such executable)") << '\n';
}

int cmd_validate(Shell& sh, std::vector<std::string> args) {
  if (args.empty()) {
    sh.error("profile validate: usage: profile validate FILE...");
    return 2;
  }
  int st = 0;
  for (auto& path : args) {
    // Read as the session may read it (its broker): lash must not read for the user,
    // and print the lines of, a file the session's programs cannot read.
    // As the loader reads policy files: one name, no symlink (store.h).
    std::string text;
    if (int err = exec::read_user_regular_file(sh, path, text, policy::kMaxPolicyFile, /*one_name=*/true)) {
      if (!sh.services().refusal().empty()) exec::report_sandbox_refusal(sh, "read '" + path + "'");  // failed closed: say why
      std::string why = err == EINVAL   ? "not a regular file"
                        : err == EFBIG  ? "file is larger than 64 KiB"
                        : err == ELOOP  ? policy::kPolicyFileSymlink
                        : err == EMLINK ? std::string("has more than one hard link; ") + policy::kPolicyFileOneName
                                        : std::strerror(err);
      sh.err() << path << ": " << why << '\n';
      st = 1;
      continue;
    }
    auto loaded = policy::load_profile_text(path, std::move(text));
    if (!loaded) {
      sh.err() << loaded.error().message() << '\n';
      st = 1;
      continue;
    }
    bool parent_ok = check_parent(sh, *loaded);
    warn_unresolved_programs(sh, *loaded);
    if (parent_ok)
      sh.out() << path << ": ok\n";
    else
      st = 1;
  }
  return st;
}

int bi_profile(Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    sh.error(std::string("profile: ") + kUsage);
    return 2;
  }
  std::string sub = argv[1];
  std::vector<std::string> args(argv.begin() + 2, argv.end());
  if (sub == "list") return cmd_list(sh, args);
  if (sub == "review") return cmd_review(sh, args, false);
  if (sub == "permissions") return cmd_review(sh, args, true);
  if (sub == "test") return cmd_test(sh, args);
  if (sub == "create") return cmd_create(sh, args);
  if (sub == "edit") return cmd_edit(sh, args);
  if (sub == "reload") return cmd_switch(sh, args, true);
  if (sub == "switch") return cmd_switch(sh, args, false);
  if (sub == "validate") return cmd_validate(sh, args);
  sh.error("profile: unknown subcommand '" + sub + "'; " + kUsage);
  return 2;
}

// The subcommands that change things need a capability: create, edit and reload
// profile_manage, switch profile_switch; list, review, permissions, test and validate
// only read. After a switch or reload the rest runs under another profile, which the
// dry run (deciding with the profile it was given) cannot follow; edit starts the
// editor, checked as a program when it starts (Shell::run_program).
exec::BuiltinEffects profile_effects(Shell& sh, const std::vector<std::string>& argv) {
  using C = policy::Capability;
  exec::BuiltinEffects e;
  if (sh.dry && sh.dry_dynamic) {  // a subcommand only the run knows: any of them
    e.actions.push_back({policy::Builtin{C::profile_switch, "profile ..."}, true});
    e.walk.later_unknown = true;
    return e;
  }
  if (argv.size() < 2) return e;  // usage error
  const std::string& sub = argv[1];
  std::optional<C> cap;
  if (sub == "create" || sub == "edit" || sub == "reload") cap = C::profile_manage;
  if (sub == "switch") cap = C::profile_switch;
  if (cap) e.actions.push_back({policy::Builtin{*cap, "profile " + sub}});
  e.walk.starts_editor = sub == "edit";
  e.walk.later_unknown = sub == "switch" || sub == "reload";
  return e;
}

constexpr exec::BuiltinDef kProfile[] = {
    {"profile", bi_profile, profile_effects, exec::BuiltinKind::regular, "inspect, dry-run and switch security profiles"},
};

}  // namespace

void register_profile() { exec::register_builtins(kProfile); }

}  // namespace lash::builtins
