// Bash's compound commands: (( expr )), for (( ; ; )) and [[ expression ]]. Their
// variable changes go through Vars (and so the env guard) like any assignment; they
// start nothing and open nothing, so they need no plan of their own.
#include <regex.h>

#include <cstring>

#include "exec/test_eval.h"
#include "exec/interp.h"
#include "exec/options.h"
#include "exec/pattern.h"
#include "exec/session_view.h"

namespace lash::exec {

bool loop_control(Shell& sh);  // interpreter.cpp

namespace {

// (( )) and for (( )): an error is reported and the command fails (status 1), as in
// bash; the script goes on.
bool arith_status(Shell& sh, const ast::Word& w, int64_t& value) {
  std::string text = sh.expand_string(w);
  try {
    value = sh.arith_value(text);
    return true;
  } catch (const FatalError& e) {
    sh.error(e.message);
    return false;
  }
}

int file_test(Shell& sh, std::vector<std::string> args) {
  auto r = view_is_confined(sh)
               ? builtins::test_eval(args, [&sh](const std::string& p) { return view_hides(sh, p); })
               : builtins::test_eval(args);
  if (r.status == 2) sh.error("[[: " + r.error);
  return r.status;
}

int cond_eval(Shell& sh, const ast::CondNode& n);

int cond_binary(Shell& sh, const ast::CondNode& n) {
  const std::string& op = n.op;
  std::string lhs = sh.expand_string(n.words[0]);
  if (op == "==" || op == "=" || op == "!=") {
    std::string pat = sh.expand_pattern(n.words[1]);
    bool m = sh.opt.nocasematch ? pattern_match(ascii_lower(pat), ascii_lower(lhs)) : pattern_match(pat, lhs);
    return (m == (op != "!=")) ? 0 : 1;
  }
  if (op == "=~") {
    std::string re = sh.expand_regex(n.words[1]);
    regex_t rx;
    if (::regcomp(&rx, re.c_str(), REG_EXTENDED) != 0) return 2;
    size_t groups = rx.re_nsub + 1;
    std::vector<regmatch_t> m(groups);
    int rc = ::regexec(&rx, lhs.c_str(), groups, m.data(), 0);
    std::vector<std::string> parts;
    if (rc == 0)
      for (auto& g : m) parts.push_back(g.rm_so < 0 ? std::string() : lhs.substr(size_t(g.rm_so), size_t(g.rm_eo - g.rm_so)));
    ::regfree(&rx);
    sh.set_array("BASH_REMATCH", std::move(parts));
    return rc == 0 ? 0 : 1;
  }
  std::string rhs = sh.expand_string(n.words[1]);
  if (op == "<") return std::strcoll(lhs.c_str(), rhs.c_str()) < 0 ? 0 : 1;
  if (op == ">") return std::strcoll(lhs.c_str(), rhs.c_str()) > 0 ? 0 : 1;
  if (op == "-nt" || op == "-ot" || op == "-ef") return file_test(sh, {lhs, op, rhs});
  // -eq and the others compare arithmetic values, as in bash ([[ 1+1 -eq 2 ]]).
  int64_t a = sh.arith_value(lhs), b = sh.arith_value(rhs);
  bool r = op == "-eq" ? a == b : op == "-ne" ? a != b : op == "-lt" ? a < b : op == "-le" ? a <= b
         : op == "-gt" ? a > b : a >= b;
  return r ? 0 : 1;
}

int cond_eval(Shell& sh, const ast::CondNode& n) {
  using K = ast::CondNode::Kind;
  switch (n.kind) {
    case K::word: return sh.expand_string(n.words[0]).empty() ? 1 : 0;
    case K::negate: {
      int r = cond_eval(sh, n.kids[0]);
      return r == 2 ? 2 : (r == 0 ? 1 : 0);
    }
    case K::both: {
      int r = cond_eval(sh, n.kids[0]);
      return r != 0 ? r : cond_eval(sh, n.kids[1]);
    }
    case K::either: {
      int r = cond_eval(sh, n.kids[0]);
      return r == 0 ? 0 : cond_eval(sh, n.kids[1]);
    }
    case K::unary: {
      std::string v = sh.expand_string(n.words[0]);
      if (n.op == "-v") return sh.var_is_set(v) ? 0 : 1;
      if (n.op == "-o") {
        auto on = option_state(sh, v);
        return on && *on ? 0 : 1;
      }
      if (n.op == "-R") return 1;
      return file_test(sh, {n.op, v});
    }
    case K::binary: return cond_binary(sh, n);
  }
  return 2;
}

}  // namespace

int Interp::run_arith(Shell& sh, const ast::ArithCommand& n) {
  int64_t v = 0;
  if (!arith_status(sh, n.expr, v)) return 1;
  return v != 0 ? 0 : 1;
}

int Interp::run_arith_for(Shell& sh, const ast::ArithFor& n) {
  int64_t v = 0;
  if (!n.init.parts.empty() && !arith_status(sh, n.init, v)) return 1;
  int st = 0;
  ++sh.loop_depth;
  for (;;) {
    if (!n.cond.parts.empty()) {
      if (!arith_status(sh, n.cond, v)) {
        st = 1;
        break;
      }
      if (v == 0) break;
    }
    st = n.body ? sh.eval_list(*n.body) : 0;
    if (sh.ctl != Ctl::none && loop_control(sh)) break;
    if (!n.step.parts.empty() && !arith_status(sh, n.step, v)) {
      st = 1;
      break;
    }
  }
  --sh.loop_depth;
  sh.status = st;
  return st;
}

int Interp::run_cond(Shell& sh, const ast::CondCommand& n) { return cond_eval(sh, n.root); }

}  // namespace lash::exec
