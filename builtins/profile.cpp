// The `profile` builtin (cli.md): list, review, permissions, test, create, edit,
// reload, switch, validate. Capability checks (profile_manage, profile_switch) are
// declared by profile_effects and made by the policy gate before this runs, like any
// other action.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <variant>

#include "base/strutil.h"
#include "builtins/families.h"
#include "builtins/plugin_review.h"
#include "exec/dry_run.h"
#include "net/flow_rules.h"
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
#include "policy/review_summary.h"
#include "builtins/profile_explain.h"
#include "builtins/profile_user.h"
#include "policy/session_facts.h"
#include "policy/session_select.h"
#include "policy/store.h"
#include "policy/validate.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::Shell;

namespace {

constexpr const char* kUsage =
    "usage: profile list|review|permissions|test|explain|diff|create|edit|delete|reload|switch|dismiss|validate|help ...";

constexpr const char* kHelp =
    "profile list [--json]                 the profiles on this machine (* marks the active one)\n"
    "profile review [--json] [--keys|--plan] NAME\n"
    "                                      what NAME may run, read, write and reach, and its limits;\n"
    "                                      --keys: every key with the file:line that set it;\n"
    "                                      --plan: what the kernel enforces on this machine\n"
    "profile review [...] --user USER      the profile a login of USER gets (lash.conf or their\n"
    "                                      own choice) and why, then its review\n"
    "profile permissions [--json] [NAME]   capabilities and limits\n"
    "profile test [--json] NAME CMDLINE... decide CMDLINE under NAME without running it;\n"
    "                                      exit 0 allowed, 1 denied, 3 only known at run time\n"
    "profile test [--net TARGET]... NAME   what the session's relay would do with a connection:\n"
    "                                      HOST:PORT, IP:PORT, [IPv6]:PORT, udp:HOST:PORT, dns:NAME\n"
    "profile diff [--json] A B             the resolved keys that differ, with where each was set\n"
    "profile explain [--json] [--profile NAME] CMDLINE...\n"
    "                                      each refused action and the profile change allowing it\n"
    "profile create NAME [--from PARENT]   write a narrow commented template (PARENT: restricted)\n"
    "profile edit NAME                     edit a user profile; a rejected edit is kept aside\n"
    "profile delete NAME                   remove a user profile (never a system or built-in one)\n"
    "profile switch NAME | profile reload  change or re-read the session's profile\n"
    "profile dismiss [NAME]                no more auto-detect suggestions of NAME (default: the\n"
    "                                      last one) in this session\n"
    "profile validate FILE...              check profile files: errors, and warnings\n"
    "Reference: docs/profiles.md; JSON output: docs/usage.md.\n";

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

// Every JSON document says which contract it follows (docs/usage.md).
void print_json(Shell& sh, policy::Json j) {
  if (j.is_object()) j["schema"] = 1;
  sh.out() << j.dump(2) << '\n';
}

// The options of a subcommand. FLAGS are the ones it takes; every other word that
// starts with "-" is an error, wherever it stands among the operands (`profile review
// ci --json` means --json), except after "--" or, with OPERANDS_END > 0, after that
// many operands (the command line of `profile test`, whose words are the command's:
// a "-" word right after NAME is an option written in the wrong place, an error).
struct Opts {
  std::vector<std::string> flags;  // as given
  std::vector<std::string> operands;
  bool has(std::string_view f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }
};

std::optional<Opts> parse_opts(Shell& sh, const std::string& sub, const std::vector<std::string>& args,
                               std::initializer_list<std::string_view> flags, size_t operands_end = 0) {
  Opts o;
  bool rest = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool dash = a.size() > 1 && a[0] == '-';
    if (operands_end && o.operands.size() >= operands_end && !rest) {
      if (a == "--" && o.operands.size() == operands_end) {  // NAME -- CMDLINE
        rest = true;
        continue;
      }
      // The first word of the command line: an option there was meant for us.
      if (dash && o.operands.size() == operands_end && a != "--") {
        sh.error("profile " + sub + ": option '" + a + "' after NAME; options go before NAME (`profile help`)");
        return std::nullopt;
      }
      rest = true;
    }
    if (rest) {
      o.operands.push_back(a);
    } else if (a == "--") {
      rest = true;
    } else if (dash) {
      if (std::find(flags.begin(), flags.end(), a) == flags.end()) {
        sh.error("profile " + sub + ": unknown option '" + a + "' (`profile help`)");
        return std::nullopt;
      }
      o.flags.push_back(a);
    } else {
      o.operands.push_back(a);
    }
  }
  return o;
}

int cmd_list(Shell& sh, std::vector<std::string> args) {
  auto o = parse_opts(sh, "list", args, {"--json"});
  if (!o) return 2;
  if (!o->operands.empty()) {
    sh.error("profile list: usage: profile list [--json]");
    return 2;
  }
  bool json = o->has("--json");
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

// Takes `--user NAME` (or --user=NAME) out of IN, before any "--"; false when
// --user has no value.
bool take_user_option(std::vector<std::string>& in, std::optional<std::string>& user) {
  for (size_t i = 0; i < in.size() && in[i] != "--"; ++i) {
    if (in[i].rfind("--user=", 0) == 0) {
      user = in[i].substr(7);
      in.erase(in.begin() + long(i));
      return !user->empty();
    }
    if (in[i] == "--user") {
      if (i + 1 >= in.size()) return false;
      user = in[i + 1];
      in.erase(in.begin() + long(i), in.begin() + long(i) + 2);
      return !user->empty();
    }
  }
  return true;
}

int cmd_review(Shell& sh, std::vector<std::string> in, bool permissions) {
  constexpr const char* kReviewUsage =
      "profile review: usage: profile review [--json] [--keys|--plan|--all] NAME | --user USER";
  std::optional<std::string> user;
  if (!permissions && !take_user_option(in, user)) {
    sh.error(kReviewUsage);
    return 2;
  }
  auto o = permissions ? parse_opts(sh, "permissions", in, {"--json"})
                       : parse_opts(sh, "review", in, {"--json", "--plan", "--keys", "--all"});
  if (!o) return 2;
  bool json = o->has("--json");
  const auto& args = o->operands;
  std::string name = args.empty() ? active_name() : args[0];
  if ((args.empty() && !permissions && !user) || args.size() > 1 || (user && !args.empty())) {
    sh.error(permissions ? "profile permissions: usage: profile permissions [--json] [NAME]" : kReviewUsage);
    return 2;
  }
  // --user: the profile a login of USER would get (lash.conf, else their own choice).
  std::optional<std::pair<policy::Account, policy::Selection>> chosen;
  if (user) {
    policy::SearchPath store("", "");
    auto r = policy::select_user_profile(*user, store);
    if (!r) {
      sh.error("profile review: " + r.error().message());
      return 2;
    }
    chosen = std::move(r.value());
  }
  auto p = chosen ? Result<std::shared_ptr<const policy::ResolvedProfile>>(chosen->second.profile) : load(name);
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
  bool keys = o->has("--keys") || o->has("--all"), plan = o->has("--plan") || o->has("--all");
  policy::Summary summary = policy::review_summary(**p);
  if (json) {
    // One document: the summary always, the keys and the plan as asked.
    policy::Json j = policy::review_json(**p);
    if (!keys) j.erase("keys");
    policy::Json sum = policy::Json::object();
    for (const auto& l : summary) sum[l.label] = l.text;
    j["summary"] = sum;
    if (plan) j["sandbox"] = exec::sandbox_review_json(sh, **p);
    j["plugins"] = plugin_grants_json(sh, *p);
    if (chosen) j["user"] = user_selection_json(chosen->first, chosen->second);
    print_json(sh, j);
    return 0;
  }
  if (chosen) sh.out() << user_selection_text(chosen->first, chosen->second);
  if (!keys && !plan) {
    sh.out() << policy::summary_text(**p, summary) << plugin_grants_text(sh, *p);
  } else {
    if (keys) sh.out() << policy::review_text(**p);
    if (plan) sh.out() << exec::sandbox_review_text(sh, **p) << plugin_grants_text(sh, *p);
  }
  return 0;
}

// The dry run of TEXT under P, as the real run would decide it (policy, then the
// sandbox for programs and files the shell opens). nullopt after a syntax error.
std::optional<std::vector<exec::CheckedAction>> decide_cmdline(Shell& sh, const std::string& text,
                                                               const std::shared_ptr<const policy::ResolvedProfile>& p,
                                                               const char* what, bool ask_sandbox = true) {
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, exec::stack_bytes_left());
  po.filename = what;
  auto parsed = syntax::parse(text, po);
  if (parsed.error) {
    sh.error(parsed.error->render());
    return std::nullopt;
  }
  policy::Engine engine(p, policy::make_session_facts(*p, exec::session_env_of(sh)));
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
  if (std::optional<std::string> refusal = affected && ask_sandbox ? exec::sandbox_refusal_for(sh, *p) : std::nullopt)
    for (auto& a : actions)
      if (auto what = sandboxed_what(a.planned.action); what && a.decision.verdict == policy::Verdict::allow)
        a.decision = exec::sandbox_refusal_decision(p->name, *what, *refusal);
  return actions;
}

std::string join_words(const std::vector<std::string>& args, size_t from) {
  std::string text;
  for (size_t i = from; i < args.size(); ++i) text += (i > from ? " " : "") + args[i];
  return text;
}

// The first word of TEXT that looks like a URL (scheme://...), or "".
std::string first_url(const std::string& text) {
  size_t at = text.find("://");
  if (at == std::string::npos) return "";
  size_t b = at;
  while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '+' ||
                   text[b - 1] == '-' || text[b - 1] == '.'))
    --b;
  size_t e = text.find_first_of(" \t\n'\"", at);
  if (b == at) return "";
  return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

// `--net TARGET` of `profile test`: what the session's relay would do with that
// connection, step by step (DNS question, then the flow with the name it claims), each
// step the action the relay builds (net/flow_rules.h) decided by the same engine.
bool add_net_targets(Shell& sh, const std::vector<std::string>& targets,
                     const std::shared_ptr<const policy::ResolvedProfile>& p, std::vector<exec::CheckedAction>& out,
                     std::vector<std::string>& notes) {
  policy::Engine engine(p);  // as the relay builds its own (exec/net_relay_start.cpp)
  for (const std::string& t : targets) {
    auto steps = net::dry_flow_steps(t, p->values);
    if (!steps) {
      sh.error(steps.error().message());
      return false;
    }
    for (const auto& step : *steps) {
      policy::Decision d = engine.decide(step.action);
      exec::CheckedAction a;
      a.planned.action = step.action;
      a.decision = d;
      out.push_back(std::move(a));
      notes.push_back(step.note);
      // A refused name is NXDOMAIN: the program never gets an address to connect to.
      if (!d.allowed() && !d.advisory) break;
    }
  }
  return true;
}

int cmd_test(Shell& sh, std::vector<std::string> in) {
  // --net TARGET (repeatable) among the leading options: it takes a value.
  std::vector<std::string> net_targets;
  for (size_t i = 0; i < in.size() && in[i].size() > 1 && in[i][0] == '-' && in[i] != "--";) {
    if (in[i] == "--net" && i + 1 < in.size()) {
      net_targets.push_back(in[i + 1]);
      in.erase(in.begin() + long(i), in.begin() + long(i) + 2);
    } else if (in[i].rfind("--net=", 0) == 0) {
      net_targets.push_back(in[i].substr(6));
      in.erase(in.begin() + long(i));
    } else {
      ++i;
    }
  }
  auto o = parse_opts(sh, "test", in, {"--json"}, 1);
  if (!o) return 2;
  bool json = o->has("--json");
  const auto& args = o->operands;
  if (args.size() < 2 && !(args.size() == 1 && !net_targets.empty())) {
    sh.error("profile test: usage: profile test [--json] [--net TARGET]... NAME CMDLINE...");
    return 2;
  }
  auto p = load(args[0]);
  if (!p) {
    sh.error("profile: " + p.error().message());
    return 2;
  }
  std::vector<exec::CheckedAction> actions;
  if (args.size() > 1) {
    auto decided = decide_cmdline(sh, join_words(args, 1), *p, "profile test");
    if (!decided) return 2;
    actions = std::move(*decided);
  }
  // What a program connects to is decided by the relay at run time: its arguments are
  // not parsed for hosts. A URL written in the command line is the case a user would
  // expect to see checked, so there it is said, not guessed.
  std::string net_note;
  if (args.size() > 1 && (*p)->values.block_all_others.value)
    if (std::string url = first_url(join_words(args, 1)); !url.empty())
      net_note = "network: '" + url + "' is not read as a connection: the session's relay decides what a program "
                 "connects to when it runs; ask with profile test --net HOST:PORT " + args[0];
  std::vector<std::string> step_notes(actions.size());
  if (!add_net_targets(sh, net_targets, *p, actions, step_notes)) return 2;
  bool denied = false, dynamic = false;
  for (auto& a : actions) {
    if (a.decision.verdict == policy::Verdict::deny) denied = true;
    if (a.decision.verdict == policy::Verdict::dynamic) dynamic = true;
  }
  const char* verdict = denied ? "deny" : dynamic ? "dynamic" : "allow";
  if (json) {
    policy::Json arr = policy::Json::array();
    for (size_t i = 0; i < actions.size(); ++i) {
      policy::Json j = policy::action_json(actions[i].planned.action, actions[i].decision);
      if (!step_notes[i].empty()) j["step"] = step_notes[i];
      arr.push_back(std::move(j));
    }
    policy::Json doc{{"profile", (*p)->name}, {"verdict", verdict}, {"actions", std::move(arr)}};
    if (!net_note.empty()) doc["network"] = net_note;
    // What the kernel would hold the programs to on this machine (the review's plan).
    doc["sandbox"] = exec::sandbox_review_json(sh, **p);
    print_json(sh, doc);
  } else {
    for (size_t i = 0; i < actions.size(); ++i) {
      const auto& a = actions[i];
      sh.out() << policy::explain::action_line(a.planned.action, a.decision);
      if (!step_notes[i].empty()) sh.out() << "  (" << step_notes[i] << ")";
      sh.out() << '\n';
      if (a.decision.verdict == policy::Verdict::deny) sh.out() << policy::explain::refusal_lines(a.decision);
    }
    if (!net_note.empty()) sh.out() << net_note << '\n';
    sh.out() << (denied ? "denied" : dynamic ? "dynamic" : "allowed") << '\n';
  }
  // 1 denied, 3 allowed so far but only the run can tell (docs/usage.md).
  return denied ? 1 : dynamic ? 3 : 0;
}

// `profile explain [--json] [--profile NAME] CMDLINE...`: under NAME (the active
// profile without it), each refused action and the profile change that allows them.
int cmd_explain(Shell& sh, std::vector<std::string> in) {
  std::string name = active_name();
  // --profile NAME among the leading options (it takes a value).
  for (size_t i = 0; i < in.size() && in[i].size() > 1 && in[i][0] == '-' && in[i] != "--"; ++i) {
    if ((in[i] == "--profile" || in[i] == "-p") && i + 1 < in.size()) {
      name = in[i + 1];
      in.erase(in.begin() + long(i), in.begin() + long(i) + 2);
      break;
    }
    if (in[i].rfind("--profile=", 0) == 0) {
      name = in[i].substr(10);
      in.erase(in.begin() + long(i));
      break;
    }
  }
  auto o = parse_opts(sh, "explain", in, {"--json"}, 1);
  if (!o) return 2;
  if (o->operands.empty()) {
    sh.error("profile explain: usage: profile explain [--json] [--profile NAME] CMDLINE...");
    return 2;
  }
  auto p = load(name);
  if (!p) {
    sh.error("profile: " + p.error().message());
    return 2;
  }
  std::string text = join_words(o->operands, 0);
  bool syntax_ok = true;
  int round = 0;  // the sandbox is asked once: a profile change does not lift its refusal
  std::string refusals;
  std::string snippet = explain_snippet(
      *p,
      [&](const std::shared_ptr<const policy::ResolvedProfile>& q) {
        auto d = decide_cmdline(sh, text, q, "profile explain", round++ == 0);
        if (!d) syntax_ok = false;
        return d;
      },
      refusals);
  if (!syntax_ok) return 2;
  bool from_user = !(*p)->chain.empty() && (*p)->chain[0].source == policy::Source::user;
  std::string where = from_user ? "to " + (*p)->chain[0].path
                                : "to a profile of your own: profile create NAME --from " + (*p)->name;
  if (o->has("--json")) {
    print_json(sh, policy::Json{{"profile", (*p)->name}, {"refused", !refusals.empty()}, {"snippet", snippet}});
  } else if (refusals.empty()) {
    sh.out() << "nothing is refused under '" << (*p)->name << "'\n";
  } else {
    sh.out() << refusals << "\nTo allow " << (refusals.find('\n') + 1 < refusals.size() ? "them" : "it") << ", add "
             << where << "\n" << snippet;
  }
  return refusals.empty() ? 0 : 1;
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

int cmd_create(Shell& sh, std::vector<std::string> in) {
  // --from PARENT takes a value: pulled out before the flag check.
  std::string parent;
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i] == "--from" || in[i].rfind("--from=", 0) == 0) {
      if (in[i] == "--from") {
        if (i + 1 >= in.size()) {
          sh.error("profile create: --from needs a profile name");
          return 2;
        }
        parent = in[i + 1];
        in.erase(in.begin() + long(i), in.begin() + long(i) + 2);
      } else {
        parent = in[i].substr(7);
        in.erase(in.begin() + long(i));
      }
      break;
    }
  auto o = parse_opts(sh, "create", in, {});
  if (!o) return 2;
  const auto& args = o->operands;
  if (args.size() != 1 || !valid_name(args[0])) {
    sh.error("profile create: usage: profile create NAME [--from PARENT] (NAME: letters, digits, _ and -)");
    return 2;
  }
  const std::string& name = args[0];
  // A user file named like a system or built-in profile replaces it for every session
  // that selects that name (`default`: every plain lash). Started from the narrow
  // template it would take away what those sessions had, profile_manage included, so
  // the user could not even undo it from lash: it extends the one it shadows instead.
  bool shadows = false;
  if (parent.empty()) {
    policy::SearchPath store = policy::session_search_path();
    shadows = bool(policy::find_profile(store, name, user_dir_allowed(), policy::Source::system));
    if (shadows) parent = name;
  }
  if (!parent.empty()) {
    // The parent must load now, as it will for the new profile (its own name: the
    // system or built-in one below the user directory).
    std::string why;
    if (parent == name) {
      policy::SearchPath store = policy::session_search_path();
      if (!policy::find_profile(store, parent, user_dir_allowed(), policy::Source::system))
        why = "no system or built-in profile '" + parent + "' to extend";
    } else if (auto p = load(parent); !p) {
      why = p.error().message();
    }
    if (!why.empty()) {
      sh.error("profile create: parent '" + parent + "' cannot be used: " + why);
      return 2;
    }
  }
  std::string dir = policy::lash_home() + "/profiles";
  ::mkdir(policy::lash_home().c_str(), 0700);
  ::mkdir(dir.c_str(), 0700);
  std::string text = policy::profile_template(name, parent);
  std::string err;
  if (!write_new_file(user_profile_path(name), text, err)) {
    sh.error("profile create: " + user_profile_path(name) + ": " + err);
    return 1;
  }
  sh.out() << user_profile_path(name) << '\n';
  if (shadows)
    sh.err() << "profile create: note: '" << name << "' replaces the " << name
             << " profile below the user directory for every session that selects it; the new file extends it "
                "(from = "
             << name << "), so nothing changes until you edit it; profile delete " << name << " undoes it\n";
  return 0;
}

// Only a user file is deleted: system and built-in profiles are not the user's.
int cmd_delete(Shell& sh, std::vector<std::string> in) {
  auto o = parse_opts(sh, "delete", in, {});
  if (!o) return 2;
  if (o->operands.size() != 1 || !valid_name(o->operands[0])) {
    sh.error("profile delete: usage: profile delete NAME");
    return 2;
  }
  const std::string& name = o->operands[0];
  std::string path = user_profile_path(name);
  // The session's own profile may go too (a user `default` is the one every plain
  // session runs under, so refusing would leave no way to undo it from lash): what is
  // in force stays in force, in memory, until the session ends; new sessions find the
  // name below the user directory.
  bool in_force = false;
  if (name == active_name() && user_dir_allowed()) {
    exec::Session* s = exec::current_session();
    in_force = s && s->active && !s->active->chain.empty() && s->active->chain[0].path == path;
  }
  if (::unlink(path.c_str()) != 0) {
    int err = errno;
    if (err == ENOENT) {
      policy::SearchPath store = policy::session_search_path();
      auto f = policy::find_profile(store, name, false);
      sh.error("profile delete: no user profile '" + name + "'" +
               (f ? std::string(" (the ") + std::string(policy::source_name(f->source)) +
                        " one cannot be deleted)"
                  : std::string()));
    } else {
      sh.error("profile delete: " + path + ": " + std::strerror(err));
    }
    return 1;
  }
  ::unlink((path + ".rejected").c_str());
  sh.out() << "deleted " << path << '\n';
  if (in_force)
    sh.err() << "profile delete: this session keeps the profile '" << name
             << "' it loaded until it ends; new sessions no longer use that file\n";
  return 0;
}

// The resolved keys of A and B that differ, each with the file:line that set it.
int cmd_diff(Shell& sh, std::vector<std::string> in) {
  auto o = parse_opts(sh, "diff", in, {"--json"});
  if (!o) return 2;
  if (o->operands.size() != 2) {
    sh.error("profile diff: usage: profile diff [--json] A B");
    return 2;
  }
  auto a = load(o->operands[0]), b = load(o->operands[1]);
  for (auto* p : {&a, &b})
    if (!*p) {
      sh.error("profile: " + p->error().message());
      return 2;
    }
  policy::Json keys = policy::Json::array();
  std::string text;
  for (const auto& k : policy::all_keys()) {
    if (k.id == "profile.description" || k.id == "inherit.from") continue;
    std::string va = policy::value_text((*a)->values, k), vb = policy::value_text((*b)->values, k);
    if (va == vb) continue;
    auto prov = [&](const policy::ResolvedProfile& r) {
      return std::visit([&](auto m) { return (r.values.*m).from.text(); }, k.field);
    };
    policy::Json ja = policy::value_json((*a)->values, k), jb = policy::value_json((*b)->values, k);
    if (ja.is_array() && jb.is_array()) {  // a list: the entries one has and the other lacks
      auto only = [](const policy::Json& x, const policy::Json& y) {
        std::string out;
        for (const auto& e : x)
          if (std::find(y.begin(), y.end(), e) == y.end()) out += (out.empty() ? "" : ", ") + e.dump();
        return out.empty() ? std::string("-") : out;
      };
      va = "only here: " + only(ja, jb);
      vb = "only here: " + only(jb, ja);
    }
    text += std::string(k.id) + "\n  " + o->operands[0] + ": " + policy::explain::display(va) + "  # " +
            prov(**a) + "\n  " + o->operands[1] + ": " + policy::explain::display(vb) + "  # " + prov(**b) + "\n";
    keys.push_back(policy::Json{{"key", std::string(k.id)},
                                {"a", {{"value", policy::value_json((*a)->values, k)}, {"source", prov(**a)}}},
                                {"b", {{"value", policy::value_json((*b)->values, k)}, {"source", prov(**b)}}}});
  }
  if (o->has("--json"))
    print_json(sh, policy::Json{{"a", o->operands[0]}, {"b", o->operands[1]}, {"differences", std::move(keys)}});
  else
    sh.out() << (text.empty() ? "no difference\n" : text);
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
  std::string from = active_name();
  exec::activate_profile(sh, *p);
  // Every change of the session's profile is in the audit log (the audit plugin's
  // `switches` lists them), whatever [monitoring] says: it changes what every later
  // record means.
  policy::Json extra = policy::Json::object();
  policy::put_string(extra, "from", from);
  exec::audit_event("profile", (*p)->name, reload ? "reload" : "switch", "", extra);
  return 0;
}

int cmd_dismiss(Shell& sh, std::vector<std::string> args) {
  if (args.size() > 1 || (args.size() == 1 && !valid_name(args[0]))) {
    sh.error("profile dismiss: usage: profile dismiss [NAME]");
    return 2;
  }
  auto r = exec::dismiss_suggestion(args.empty() ? std::nullopt : std::optional<std::string>(args[0]));
  if (!r) {
    sh.error("profile dismiss: " + r.error().message());
    return 1;
  }
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
    if (e.rfind("./", 0) == 0) path = env.start_dir + e.substr(1);
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

// The parent and spawn lists of a file that does not load as a whole, each entry as
// written and where: only well-formed values (a valid name, program items) are taken.
std::optional<policy::LoadedProfile> partial_profile(const std::string& path, const std::string& text) {
  policy::Diags ignored;
  auto doc = policy::read_ini(text, path, ignored);
  if (!doc) return std::nullopt;
  policy::LoadedProfile lp;
  lp.name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  if (lp.name.size() > 8 && lp.name.compare(lp.name.size() - 8, 8, ".profile") == 0) lp.name.resize(lp.name.size() - 8);
  lp.path = path;
  lp.source = policy::Source::user;
  if (const auto* sec = doc->find("inherit"))
    for (const auto& e : sec->entries)
      if (e.key == "from" && e.continuations.empty())
        if (auto n = policy::validate::profile_name(e.value))
          lp.profile.inherit_from = policy::Field<std::string>{*n, true, {path, e.line, lp.name}};
  if (const auto* sec = doc->find("process"))
    for (const auto& e : sec->entries) {
      auto* f = e.key == "spawn_allowlist" ? &lp.profile.spawn_allowlist
                : e.key == "spawn_denylist" ? &lp.profile.spawn_denylist
                                            : nullptr;
      if (!f) continue;
      std::string all = e.value;
      for (const auto& c : e.continuations) all += "," + c.value;
      auto items = policy::validate::split_list(all);
      if (!items) continue;
      policy::List ok;
      for (const auto& i : *items)
        if (auto v = policy::validate::program(i)) ok.push_back(*v);
      *f = policy::Field<policy::List>{ok, true, {path, e.line, lp.name}};
    }
  return lp;
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
    std::string raw = text;
    auto loaded = policy::load_profile_text(path, std::move(text));
    if (!loaded) {
      sh.err() << loaded.error().message() << '\n';
      st = 1;
      // All errors at once: the parent and the program lists are checked too, from
      // what the file says where it says it (the rest did not load).
      if (auto partial = partial_profile(path, raw)) {
        (void)check_parent(sh, *partial);
        warn_unresolved_programs(sh, *partial);
      }
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
  if (sub == "dismiss") return cmd_dismiss(sh, args);
  if (sub == "validate") return cmd_validate(sh, args);
  if (sub == "delete") return cmd_delete(sh, args);
  if (sub == "diff") return cmd_diff(sh, args);
  if (sub == "explain") return cmd_explain(sh, args);
  if (sub == "help" || sub == "--help") {
    sh.out() << kHelp;
    return 0;
  }
  sh.error("profile: unknown subcommand '" + sub + "'; " + kUsage);
  return 2;
}

// The subcommands that change things need a capability: create, edit and delete
// profile_manage, switch and reload profile_switch; list, review, permissions, test and validate
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
  if (sub == "create" || sub == "edit" || sub == "delete") cap = C::profile_manage;
  // A reload puts whatever the profile files now say in force in this session: a
  // user file shadowing the active profile's parent would widen it. That is a switch
  // as much as `profile switch` is.
  if (sub == "switch" || sub == "reload") cap = C::profile_switch;
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
