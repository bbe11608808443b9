#include "exec/dry_run.h"
#include "exec/stack_guard.h"

#include <algorithm>
#include <map>
#include <set>

#include "exec/interp.h"
#include "exec/plan.h"
#include "exec/shell.h"
#include "exec/user_files.h"
#include "policy/engine.h"
#include "sandbox/compile.h"
#include "syntax/parser.h"

namespace lash::exec {
namespace {

class DryWalker {
 public:
  DryWalker(Shell& sh, const policy::Engine& engine) : sh_(sh), engine_(engine) {}

  void list(const ast::List& l) {
    for (const auto& item : l.items) and_or(item.and_or);
  }

  std::vector<CheckedAction> take() { return std::move(out_); }

  // A command substitution's body: a subshell, whose definitions end with it.
  void substitution(const ast::List& body) {
    Scope scope(*this);
    list(body);
  }

  // An assignment inside an expansion (Shell::dry_assign).
  void assigned(const std::string& name) {
    if (auto a = loop_variable_action(sh_, name)) add({*a});
  }

 private:
  void and_or(const ast::AndOr& ao) {
    pipeline(ao.first);
    Conditional cond(*this);  // what follows && or || may not run
    for (const auto& [op, p] : ao.rest) pipeline(p);
  }
  void pipeline(const ast::Pipeline& p) {
    if (p.commands.size() == 1) return command(p.commands[0]);
    for (const auto& c : p.commands) {  // each member is a subshell
      Scope scope(*this);
      command(c);
    }
  }
  void maybe(const ast::ListPtr& l) {
    if (l) list(*l);
  }
  void maybe_conditional(const ast::ListPtr& l) {
    Conditional cond(*this);
    maybe(l);
  }

  // The walk takes every branch, so a function defined on one may or may not exist
  // when its name is called: then both the function and the program of that name are
  // reported. A subshell's definitions end with it.
  struct Conditional {
    DryWalker& w;
    explicit Conditional(DryWalker& w) : w(w) { ++w.cond_depth_; }
    ~Conditional() { --w.cond_depth_; }
  };
  struct Scope {
    DryWalker& w;
    decltype(Shell::functions) saved;
    explicit Scope(DryWalker& w) : w(w), saved(w.sh_.functions) {}
    ~Scope() {
      w.sh_.functions = std::move(saved);
      ++w.functions_changed_;
    }
  };

  void command(const ast::Command& c) {
    if (++depth_ > 200) {  // the parser bounds nesting; this bounds the walk: what is
      --depth_;             // deeper is said to be unknown, not left out
      add({{policy::Spawn{"(nested too deep for the dry run)", ""}, true}});
      return;
    }
    if (auto* sc = std::get_if<ast::SimpleCommand>(&c.v)) {
      simple(*sc);
    } else if (auto* b = std::get_if<ast::BraceGroup>(&c.v)) {
      maybe(b->body);
    } else if (auto* s = std::get_if<ast::Subshell>(&c.v)) {
      Scope scope(*this);
      maybe(s->body);
    } else if (auto* i = std::get_if<ast::IfClause>(&c.v)) {
      for (size_t k = 0; k < i->branches.size(); ++k) {
        if (k == 0) maybe(i->branches[k].condition);  // the first condition always runs
        else maybe_conditional(i->branches[k].condition);
        maybe_conditional(i->branches[k].body);
      }
      maybe_conditional(i->else_body);
    } else if (auto* l = std::get_if<ast::LoopClause>(&c.v)) {
      maybe(l->condition);
      maybe_conditional(l->body);
    } else if (auto* f = std::get_if<ast::ForClause>(&c.v)) {
      for (const auto& w : f->words) substitutions_in(w);
      sh_.dry_assigned.insert(f->var);
      if (auto a = loop_variable_action(sh_, f->var)) add({*a});
      maybe_conditional(f->body);
    } else if (auto* cs = std::get_if<ast::CaseClause>(&c.v)) {
      substitutions_in(cs->subject);
      Conditional cond(*this);
      for (const auto& item : cs->items) {
        for (const auto& w : item.patterns) substitutions_in(w);
        maybe(item.body);
      }
    } else if (auto* fd = std::get_if<ast::FunctionDef>(&c.v)) {
      // Known from now on for the commands that follow in the dry run. Its body is
      // planned where it is called (call()), with the functions defined by then: a
      // script's main() usually calls helpers defined after it.
      sh_.functions[fd->name] = fd->body;
      ++functions_changed_;
      if (cond_depth_ > 0) maybe_functions_.insert(fd->name);
      else maybe_functions_.erase(fd->name);
    }
    if (!c.redirects.empty()) {
      std::vector<PlannedRedirect> planned;
      bool ok = false;
      try {
        ok = plan_redirects(sh_, c.redirects, planned);
      } catch (const FatalError&) {
      }
      if (ok) {
        SimplePlan p;
        p.kind = SimplePlan::Kind::assignments_only;
        p.redirects = std::move(planned);
        unknown_lookups(p);
        add(plan_actions(sh_, p));
      } else {  // fails to plan now; with the run's values it may open something
        add({{policy::Spawn{"(redirection only the run can plan)", ""}, true}});
      }
    }
    --depth_;
  }

  void simple(const ast::SimpleCommand& sc) {
    // A substitution's body is walked in the middle of the enclosing command's
    // expansion: that command's flag is kept for it.
    struct KeepFlag {
      bool& flag;
      bool saved;
      ~KeepFlag() { flag = saved; }
    } keep{sh_.dry_dynamic, sh_.dry_dynamic};
    SimplePlan p;
    bool via_command = false;
    sh_.dry_dynamic = false;
    bool planned = false;
    try {
      planned = Interp::plan(sh_, sc, p, via_command);
    } catch (const FatalError&) {
    } catch (const Refused&) {
    }
    if (!planned) {
      // It fails to plan with today's values; with the run's it may plan and run.
      // What it would run is unknown: said, not left out.
      add({{policy::Spawn{sc.words.empty() ? "(redirection only the run can plan)" : word_display(sc.words[0]), ""},
            true}});
      return;
    }
    bool substituted = sh_.dry_dynamic;
    for (const auto& a : p.assigns) sh_.dry_assigned.insert(a.first);  // exported or not
    if (p.deferred_assigns)
      for (const auto& a : *p.deferred_assigns) sh_.dry_assigned.insert(a.name);
    unknown_lookups(p);
    // A command of assignments only expands them when it runs (each may see the one
    // before): their substitutions run then, so the dry run walks them too.
    if (p.deferred_assigns)
      for (const auto& a : *p.deferred_assigns) substitutions_in(a.value);
    if (!sc.words.empty() && p.dynamic_name) {
      // The command name comes from an expansion: what runs is decided at run
      // time, whatever it expands to now.
      std::vector<PlannedAction> one{{policy::Spawn{word_display(sc.words[0]), ""}, true}};
      add(std::move(one));
      return;
    }
    add(plan_actions(sh_, p));
    if (p.kind == SimplePlan::Kind::function && p.function) call(p.argv.empty() ? "" : p.argv[0], p.function);
    if (p.kind == SimplePlan::Kind::function && !p.argv.empty() && maybe_functions_.count(p.argv[0])) {
      SimplePlan program;  // the function may not exist then: the program runs
      program.argv = {p.argv[0]};
      program.path = sh_.find_command(p.argv[0]);
      if (!program.path.empty()) {
        program.kind = SimplePlan::Kind::external;
        add(plan_actions(sh_, program));
      }
    }
    if (p.builtin && (p.kind == SimplePlan::Kind::builtin || p.kind == SimplePlan::Kind::special_builtin))
      follow(p.builtin->effects(sh_, p.argv).walk, sc, p, substituted);
  }

  // What a builtin declares about the rest of the walk (WalkHints, builtin_api.h); its
  // actions were added with the command's (plan_actions).
  void follow(const WalkHints& w, const ast::SimpleCommand& sc, const SimplePlan& p, bool substituted) {
    if (!w.functions_removed.empty()) {  // unset -f NAME: the name may be a program again
      for (const auto& f : w.functions_removed) maybe_functions_.insert(f);
      ++functions_changed_;
    }
    if (substituted && w.operands_are_variables) dynamic_env_operands(sc, p, w.operand_op);
    if (w.allexport) sh_.vars.allexport = true;  // dry_run() restores it
    if (w.changes_cwd) {
      cwd_changed_ = true;
      sh_.dry_assigned.insert("PWD");  // and $PWD with it
      sh_.dry_assigned.insert("OLDPWD");
    }
    if (w.starts_editor) editor_spawn();
    if (w.later_unknown) later_unknown_ = true;
    nested_text(w, p.argv[0], substituted);
  }

  // A call of a function: its body is planned with the functions known now. Again at
  // a later call only when definitions changed in between (a loop calling it does not
  // multiply the walk); not inside itself (recursion); at most 256 bodies in all,
  // beyond which what it runs is unknown. What the body defines may not happen (it
  // may return before): planned as on a branch.
  void call(const std::string& name, const std::shared_ptr<const ast::Command>& body) {
    auto key = std::make_pair(body.get(), functions_changed_);
    if (walked_calls_.count(key) || in_call_.count(body.get())) return;
    if (walked_calls_.size() >= 256) return add({{policy::Spawn{name + " (too many function bodies for the dry run)", ""}, true}});
    walked_calls_.insert(key);
    in_call_.insert(body.get());
    {
      Conditional cond(*this);
      command(*body);
    }
    in_call_.erase(body.get());
  }

  // A builtin whose operands name the variables it changes (export, unset, read...),
  // with an operand only the run knows: which variable changes is unknown. When every
  // word is sure to be one field, the builtin's own effects function, run on the words
  // with each expansion standing in as a placeholder name, says which of them are
  // variables (`read -rp "$prompt" x`: not the prompt). Otherwise every expanded
  // operand may be one.
  void dynamic_env_operands(const ast::SimpleCommand& sc, const SimplePlan& p, policy::EnvOp op) {
    std::vector<std::string> shape;
    std::map<std::string, size_t> stand_ins;  // placeholder name -> its word
    bool one_field_each = sc.words.size() == p.argv.size();  // not after `command`
    for (size_t i = 0; one_field_each && i < sc.words.size(); ++i) {
      const auto& w = sc.words[i];
      if (literal_field(w)) {
        shape.push_back(p.argv[i]);
      } else if (quoted_field(w) && i > 0) {
        shape.push_back("lash_dry_operand_" + std::to_string(i));
        stand_ins[shape.back()] = i;
      } else {
        one_field_each = false;
      }
    }
    if (!one_field_each) {
      for (size_t i = 1; i < sc.words.size(); ++i)
        if (!literal_field(sc.words[i])) add({{policy::EnvChange{word_display(sc.words[i]), op}, true}});
      return;
    }
    // A literal operand the parse of today's values missed (`read "$v" HOME` with $v
    // not a name now fails before HOME): decided as the run will, once $v is one.
    auto same = [](const PlannedAction& x, const PlannedAction& y) {
      const auto* a = std::get_if<policy::EnvChange>(&x.action);
      const auto* b = std::get_if<policy::EnvChange>(&y.action);
      return a && b && a->name == b->name && a->op == b->op;
    };
    std::vector<PlannedAction> now = p.builtin->effects(sh_, p.argv).actions;
    for (const auto& a : p.builtin->effects(sh_, shape).actions) {
      const auto* e = std::get_if<policy::EnvChange>(&a.action);
      if (!e || stand_ins.count(e->name)) continue;
      if (std::none_of(now.begin(), now.end(), [&](const PlannedAction& n) { return same(n, a); })) add({a});
    }
    // Which variable it is is unknown, so whether it is exported too: as if all were.
    bool saved_allexport = sh_.vars.allexport;
    sh_.vars.allexport = true;
    BuiltinEffects e_all = p.builtin->effects(sh_, shape);
    sh_.vars.allexport = saved_allexport;
    for (const auto& a : e_all.actions) {
      const auto* e = std::get_if<policy::EnvChange>(&a.action);
      auto it = e ? stand_ins.find(e->name) : stand_ins.end();
      if (it == stand_ins.end()) continue;  // a literal operand: decided with the command
      add({{policy::EnvChange{word_display(sc.words[it->second]), e->op}, true}});
    }
  }

  // A word that is its own text, one field: a literal without pattern characters.
  static bool literal_field(const ast::Word& w) {
    if (w.parts.size() != 1) return false;
    const auto* l = std::get_if<ast::Literal>(&w.parts[0].v);
    return l && (l->quoted || l->text.find_first_of("*?[") == std::string::npos);
  }
  // One double-quoted word that always expands to exactly one field: no "$@", and no
  // ${x-...} word (which could hold one).
  static bool quoted_field(const ast::Word& w) {
    if (w.parts.size() != 1) return false;
    const auto* dq = std::get_if<ast::DoubleQuoted>(&w.parts[0].v);
    if (!dq) return false;
    for (const auto& part : dq->parts)
      if (const auto* prm = std::get_if<ast::Parameter>(&part.v); prm && (prm->name == "@" || prm->arg)) return false;
    return true;
  }

  // Names the run resolves against what only it knows: a bare command name on a PATH
  // the script set, and after a `cd` in the walk, a relative path (a redirection target,
  // a program) against a directory only the run knows.
  void unknown_lookups(SimplePlan& p) {
    // A PATH the script set (here or before): a bare name is looked up in it then.
    bool path_set = sh_.dry_assigned.count("PATH") > 0;
    for (const auto& [n, v] : p.assigns) path_set = path_set || n == "PATH";
    if (path_set && (p.kind == SimplePlan::Kind::external || p.kind == SimplePlan::Kind::not_found) &&
        !p.argv.empty() && p.argv[0].find('/') == std::string::npos)
      p.dynamic_name = true;
    if (!cwd_changed_) return;
    for (auto& r : p.redirects)
      if (r.kind == PlannedRedirect::Kind::open && (r.path.empty() || r.path[0] != '/')) r.dynamic = true;
    if (p.kind == SimplePlan::Kind::external && !p.argv.empty() && p.argv[0].find('/') != std::string::npos &&
        p.argv[0][0] != '/')
      p.dynamic_name = true;
  }

  // `profile edit` starts $VISUAL / $EDITOR / vi as a typed command (Shell::run_program).
  void editor_spawn() {
    const std::string* visual = sh_.vars.get("VISUAL");
    const std::string* editor = sh_.vars.get("EDITOR");
    std::string prog = visual && !visual->empty() ? *visual : editor && !editor->empty() ? *editor : "vi";
    if (sh_.dry_assigned.count("VISUAL") || sh_.dry_assigned.count("EDITOR"))
      return add({{policy::Spawn{"$VISUAL/$EDITOR", ""}, true}});  // set by the script: only the run knows
    SimplePlan e;
    e.argv = {prog};
    e.path = prog.find('/') != std::string::npos ? prog : sh_.find_command(prog);
    e.kind = e.path.empty() ? SimplePlan::Kind::not_found : SimplePlan::Kind::external;
    add(plan_actions(sh_, e));
  }

  // A word the walk does not plan as part of a simple command (a for list, a case
  // subject or pattern, a deferred assignment): expanded in dry mode only so that each
  // $(...) in it is walked (Shell::dry_visit); nothing runs and nothing is assigned.
  void substitutions_in(const ast::Word& w) {
    try {
      (void)sh_.expand_string(w);
    } catch (const FatalError&) {
    } catch (const Refused&) {
    }
  }

  // Shell text a builtin runs (eval TEXT, . FILE, trap TEXT SIGNAL...): plan that text
  // too. Text only the run knows (a substitution or variable in the command, a file
  // not there yet) is reported as running something unknown.
  void nested_text(const WalkHints& w, const std::string& name, bool substituted) {
    using T = WalkHints::Text;
    if (w.text == T::none) return;
    auto unknown = [&](const std::string& what) { add({{policy::Spawn{what, ""}, true}}); };
    if (substituted) return unknown(name + " ...");
    std::string text;
    if (w.text == T::now) {
      text = w.text_value;
    } else if (w.text == T::file) {
      const std::string& operand = w.text_value;
      if (cwd_changed_ && (operand.empty() || operand[0] != '/')) return unknown(name + " " + operand);  // relative to a directory only the run knows
      std::string file = find_dot_file(sh_, operand);  // as the builtin finds it
      if (file.empty()) return unknown(name + " " + operand);
      // As `.` reads it: through the session's broker (the walk prints the words it
      // parses, so lash must not read for the user what the session cannot).
      if (read_user_regular_file(sh_, file, text, 1u << 20) != 0) return unknown(name + " " + operand);
    } else {
      // It runs later, at exit or when the signal comes: walked by finish(), when
      // the functions defined after this point are known too (`trap cleanup EXIT`
      // before `cleanup() {...}`), as ones that may not exist yet.
      std::set<std::string> known;
      for (const auto& f : sh_.functions) known.insert(f.first);
      deferred_traps_.push_back({w.text_value, std::move(known)});
      return;
    }
    walk_text(name, text);
  }

  // eval of eval of ..., and a file that sources itself: bounded in depth and in
  // total; beyond that what runs is said to be unknown.
  void walk_text(const std::string& name, const std::string& text) {
    if (nested_ >= 8 || nested_total_ >= 256)
      return add({{policy::Spawn{name + " ... (nested too deep for the dry run)", ""}, true}});
    ++nested_;
    ++nested_total_;
    syntax::ParseOptions po;
    po.max_stack_bytes = std::min(po.max_stack_bytes, stack_bytes_left());
    po.filename = name;
    auto parsed = syntax::parse(text, po);
    if (parsed.program) {
      Conditional cond(*this);  // a trap may never fire; a definition in it may never happen
      list(*parsed.program);
    }
    --nested_;
  }

 public:
  // The trap text the walk met, once the script's own commands are walked.
  void finish() {
    for (size_t k = 0; k < deferred_traps_.size(); ++k) {  // trap text may set a trap
      DeferredTrap t = deferred_traps_[k];
      auto saved = maybe_functions_;
      for (const auto& f : sh_.functions)
        if (!t.functions_then.count(f.first)) maybe_functions_.insert(f.first);
      walk_text("trap", t.text);
      maybe_functions_ = std::move(saved);
    }
  }

 private:


  // How a word is shown when its value is only known at run time: "$cmd", "$(...)".
  static std::string word_display(const ast::Word& w) {
    std::string out;
    for (const auto& part : w.parts) {
      if (auto* l = std::get_if<ast::Literal>(&part.v)) {
        out += l->text;
      } else if (auto* prm = std::get_if<ast::Parameter>(&part.v)) {
        out += "$" + prm->name;
      } else if (auto* dq = std::get_if<ast::DoubleQuoted>(&part.v)) {
        for (const auto& ip : dq->parts) {
          if (auto* il = std::get_if<ast::Literal>(&ip.v)) out += il->text;
          else if (auto* ipr = std::get_if<ast::Parameter>(&ip.v)) out += "$" + ipr->name;
          else out += "$(...)";
        }
      } else if (std::holds_alternative<ast::CommandSubst>(part.v)) {
        out += "$(...)";
      } else if (std::holds_alternative<ast::Arithmetic>(part.v)) {
        out += "$((...))";
      } else {
        out += "~";
      }
    }
    return out;
  }

  void add(std::vector<PlannedAction> actions) {
    for (auto& a : actions) {
      if (later_unknown_) a.dynamic = true;
      if (const auto* e = std::get_if<policy::EnvChange>(&a.action)) sh_.dry_assigned.insert(e->name);
    }
    for (auto& c : check(actions, engine_)) out_.push_back(std::move(c));
  }

  Shell& sh_;
  const policy::Engine& engine_;
  std::vector<CheckedAction> out_;
  int depth_ = 0;
  int nested_ = 0;
  int nested_total_ = 0;
  bool cwd_changed_ = false;  // a cd was walked
  int cond_depth_ = 0;        // inside a branch that may not run
  std::set<std::string> maybe_functions_;  // defined on such a branch, or unset
  bool later_unknown_ = false;
  struct DeferredTrap {
    std::string text;
    std::set<std::string> functions_then;  // defined when the trap was set
  };
  std::vector<DeferredTrap> deferred_traps_;
  uint64_t functions_changed_ = 0;  // bumped by every definition, unset and scope end
  std::set<std::pair<const ast::Command*, uint64_t>> walked_calls_;  // body, at which functions_changed_
  std::set<const ast::Command*> in_call_;  // bodies being walked  // a profile switch or reload, or an alias, was walked: all that follows is dynamic
};

}  // namespace

std::vector<CheckedAction> dry_run(Shell& sh, const ast::List& program, const policy::Engine& engine) {
  // Dry mode for the duration; the function table is restored afterwards so the
  // walk's definitions do not leak into the session.
  auto saved_functions = sh.functions;
  sh.functions.clear();  // the real run is a new shell: the caller's functions are not there
  bool saved_allexport = sh.vars.allexport;
  // The real run is a new shell: the caller's set -u / set -C do not apply to it.
  bool saved_nounset = sh.opt.nounset, saved_noclobber = sh.opt.noclobber;
  sh.opt.nounset = sh.opt.noclobber = false;
  auto saved_assigned = std::move(sh.dry_assigned);
  sh.dry_assigned.clear();
  bool saved_dry = sh.dry;
  // /dev/stderr and the like as the tested profile's session serves them.
  bool saved_fd_names = sh.fd_names_are_shell_fds;
  sh.fd_names_are_shell_fds = sandbox::needs_sandbox(engine.profile());
  auto saved_visit = std::move(sh.dry_visit);
  auto saved_assign = std::move(sh.dry_assign);
  DryWalker walker(sh, engine);
  sh.dry = true;
  sh.dry_visit = [&walker](const ast::List& body) { walker.substitution(body); };
  sh.dry_assign = [&walker](const std::string& name) { walker.assigned(name); };
  walker.list(program);
  walker.finish();
  sh.dry = saved_dry;
  sh.fd_names_are_shell_fds = saved_fd_names;
  sh.dry_visit = std::move(saved_visit);
  sh.dry_assign = std::move(saved_assign);
  sh.functions = std::move(saved_functions);
  sh.vars.allexport = saved_allexport;
  sh.opt.nounset = saved_nounset;
  sh.opt.noclobber = saved_noclobber;
  sh.dry_assigned = std::move(saved_assigned);
  return walker.take();
}

}  // namespace lash::exec
