#include "exec/dry_run.h"

#include "base/fileio.h"


#include "exec/interp.h"
#include "exec/plan.h"
#include "exec/shell.h"
#include "policy/engine.h"
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

 private:
  void and_or(const ast::AndOr& ao) {
    pipeline(ao.first);
    for (const auto& [op, p] : ao.rest) pipeline(p);
  }
  void pipeline(const ast::Pipeline& p) {
    for (const auto& c : p.commands) command(c);
  }
  void maybe(const ast::ListPtr& l) {
    if (l) list(*l);
  }

  void command(const ast::Command& c) {
    if (++depth_ > 200) {  // the parser bounds nesting; this bounds the walk too
      --depth_;
      return;
    }
    if (auto* sc = std::get_if<ast::SimpleCommand>(&c.v)) {
      simple(*sc);
    } else if (auto* b = std::get_if<ast::BraceGroup>(&c.v)) {
      maybe(b->body);
    } else if (auto* s = std::get_if<ast::Subshell>(&c.v)) {
      maybe(s->body);
    } else if (auto* i = std::get_if<ast::IfClause>(&c.v)) {
      for (const auto& br : i->branches) {
        maybe(br.condition);
        maybe(br.body);
      }
      maybe(i->else_body);
    } else if (auto* l = std::get_if<ast::LoopClause>(&c.v)) {
      maybe(l->condition);
      maybe(l->body);
    } else if (auto* f = std::get_if<ast::ForClause>(&c.v)) {
      for (const auto& w : f->words) substitutions_in(w);
      if (auto a = loop_variable_action(sh_, f->var)) add({*a}, false);
      maybe(f->body);
    } else if (auto* cs = std::get_if<ast::CaseClause>(&c.v)) {
      substitutions_in(cs->subject);
      for (const auto& item : cs->items) {
        for (const auto& w : item.patterns) substitutions_in(w);
        maybe(item.body);
      }
    } else if (auto* fd = std::get_if<ast::FunctionDef>(&c.v)) {
      // Known from now on for the commands that follow in the dry run.
      sh_.functions[fd->name] = fd->body;
      if (fd->body) command(*fd->body);
    }
    if (!c.redirects.empty()) {
      std::vector<PlannedRedirect> planned;
      try {
        if (plan_redirects(sh_, c.redirects, planned)) {
          SimplePlan p;
          p.kind = SimplePlan::Kind::assignments_only;
          p.redirects = std::move(planned);
          add(plan_actions(sh_, p), false);
        }
      } catch (const FatalError&) {
      }
    }
    --depth_;
  }

  void simple(const ast::SimpleCommand& sc) {
    SimplePlan p;
    bool via_command = false;
    sh_.dry_dynamic = false;
    try {
      if (!Interp::plan(sh_, sc, p, via_command)) return;
    } catch (const FatalError&) {
      return;  // an expansion that would fail at run time: nothing to decide
    } catch (const Refused&) {
      return;
    }
    bool substituted = sh_.dry_dynamic;
    // A command of assignments only expands them when it runs (each may see the one
    // before): their substitutions run then, so the dry run walks them too.
    if (p.deferred_assigns)
      for (const auto& a : *p.deferred_assigns) substitutions_in(a.value);
    if (!sc.words.empty() && p.dynamic_name) {
      // The command name comes from an expansion: what runs is decided at run
      // time, whatever it expands to now.
      std::vector<PlannedAction> one{{policy::Spawn{word_display(sc.words[0]), ""}, true}};
      add(std::move(one), false);
      return;
    }
    add(plan_actions(sh_, p), substituted);
    if (p.builtin && (p.kind == SimplePlan::Kind::builtin || p.kind == SimplePlan::Kind::special_builtin))
      nested_text(p);
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

  // eval TEXT and . FILE run shell text: plan that text too.
  void nested_text(const SimplePlan& p) {
    std::string text;
    if (p.builtin->name == "eval") {
      for (size_t i = 1; i < p.argv.size(); ++i) {
        if (i > 1) text += ' ';
        text += p.argv[i];
      }
    } else if (p.builtin->name == "." && p.argv.size() > 1) {
      if (read_whole_file(p.argv[1], text, 1u << 20) != 0) return;
    } else {
      return;
    }
    if (++nested_ > 8) return;  // eval of eval of ...: bounded
    syntax::ParseOptions po;
    po.filename = p.argv[0];
    auto parsed = syntax::parse(text, po);
    if (parsed.program) list(*parsed.program);
    --nested_;
  }

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

  void add(std::vector<PlannedAction> actions, bool substituted) {
    for (auto& a : actions) {
      // A redirect target built from a substitution is only known at run time.
      if (substituted && std::holds_alternative<policy::Redirect>(a.action)) a.dynamic = true;
    }
    for (auto& c : check(actions, engine_)) out_.push_back(std::move(c));
  }

  Shell& sh_;
  const policy::Engine& engine_;
  std::vector<CheckedAction> out_;
  int depth_ = 0;
  int nested_ = 0;
};

}  // namespace

std::vector<CheckedAction> dry_run(Shell& sh, const ast::List& program, const policy::Engine& engine) {
  // Dry mode for the duration; the function table is restored afterwards so the
  // walk's definitions do not leak into the session.
  auto saved_functions = sh.functions;
  bool saved_dry = sh.dry;
  auto saved_visit = std::move(sh.dry_visit);
  DryWalker walker(sh, engine);
  sh.dry = true;
  sh.dry_visit = [&walker](const ast::List& body) { walker.list(body); };
  walker.list(program);
  sh.dry = saved_dry;
  sh.dry_visit = std::move(saved_visit);
  sh.functions = std::move(saved_functions);
  return walker.take();
}

}  // namespace lash::exec
