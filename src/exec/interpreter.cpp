// The AST walker: lists, and-or lists, pipelines and compound commands. Simple
// commands are in simple_command.cpp. Control flow requested by break, continue,
// return and exit unwinds through Shell::ctl, checked after every command.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/status.h"
#include "exec/interp.h"
#include "exec/pattern.h"
#include "exec/plan.h"
#include "exec/policy_gate.h"
#include "exec/redirect.h"
#include "exec/shell.h"
#include "exec/stack_guard.h"
#include "sandbox/ns.h"
#include "sandbox/launch.h"

namespace lash::exec {

namespace {

bool is_compound_for_errexit(const ast::Command& c) {
  // The status of these comes from commands inside them, which were already
  // checked against `set -e` where it applies.
  return std::holds_alternative<ast::BraceGroup>(c.v) || std::holds_alternative<ast::IfClause>(c.v) ||
         std::holds_alternative<ast::LoopClause>(c.v) || std::holds_alternative<ast::ForClause>(c.v) ||
         std::holds_alternative<ast::CaseClause>(c.v) || std::holds_alternative<ast::ArithFor>(c.v);
}

}  // namespace

int Shell::eval_list(const ast::List& list, bool tail) {
  const size_t n = list.items.size();
  for (size_t i = 0; i < n; ++i) {
    const auto& item = list.items[i];
    if (item.background) {
      status = Interp::run_background(*this, item.and_or);
    } else {
      status = eval_and_or(item.and_or, tail && i + 1 == n);
    }
    if (g_pending_any) run_pending_traps();
    if (ctl != Ctl::none || opt.noexec) break;  // `set -n`: nothing more runs
  }
  return status;
}

int Shell::eval_and_or(const ast::AndOr& ao, bool tail) {
  const size_t n = ao.rest.size();
  int st;
  if (n == 0) {
    st = eval_pipeline(ao.first, tail);
  } else {
    ++cond_depth;
    st = eval_pipeline(ao.first, false);
    --cond_depth;
    for (size_t i = 0; i < n && ctl == Ctl::none; ++i) {
      if (g_pending_any) {  // a trap runs after the command it interrupted, as in dash
        status = st;
        run_pending_traps();
        if (ctl != Ctl::none) break;
      }
      const auto& [op, p] = ao.rest[i];
      if ((op == ast::AndOrOp::and_if) != (st == 0)) continue;
      bool last = i + 1 == n;
      if (!last) ++cond_depth;
      st = eval_pipeline(p, tail && last);
      if (!last) --cond_depth;
    }
  }
  status = st;
  return st;
}

// bash's ERR trap: runs where set -e would act, before it does (its status is
// not the command's).
void Shell::err_trap_due(const ast::Pipeline& p, int st) {
  if (p.bang || cond_depth != 0 || ctl != Ctl::none || in_pseudo_trap) return;
  if (p.commands.size() == 1 && is_compound_for_errexit(p.commands[0])) return;
  status = st;
  // $LINENO in the trap is the failed command's line, not the last line a function
  // it called ran.
  line = p.commands.back().range.line;
  run_pseudo_trap(kTrapErr);
  status = st;
}

int Shell::eval_pipeline(const ast::Pipeline& p, bool tail) {
  int st;
  ForegroundJob job(*this, p.range);  // interactive job control: the pipeline is one job
  if (p.bang) ++cond_depth;
  if (p.commands.size() == 1) {
    st = eval_command(p.commands[0], tail && !p.bang);
    if (st != 0 && pseudo_trap_set[kTrapErr]) err_trap_due(p, st);
    if (!p.bang && st != 0 && opt.errexit && cond_depth == 0 && ctl == Ctl::none &&
        !is_compound_for_errexit(p.commands[0])) {
      status = st;
      ctl = Ctl::exit;
      exit_status_for_ctl = st;
    }
  } else {
    st = Interp::run_pipeline(*this, p);
    if (st != 0 && pseudo_trap_set[kTrapErr]) err_trap_due(p, st);
    if (!p.bang && st != 0 && opt.errexit && cond_depth == 0 && ctl == Ctl::none) {
      status = st;
      ctl = Ctl::exit;
      exit_status_for_ctl = st;
    }
  }
  st = job.finish(st);
  if (p.commands.size() == 1) {
    pipestatus.resize(1);
    pipestatus[0] = st;
  }
  if (p.bang) {
    --cond_depth;
    st = st == 0 ? 1 : 0;
  }
  status = st;
  return st;
}

int Shell::eval_command(const ast::Command& c, bool tail) {
  check_stack_depth();
  if (++eval_depth > kMaxEvalDepth) {
    --eval_depth;
    throw FatalError{"evaluation nested too deeply", 2};
  }
  struct DepthGuard {
    int& d;
    ~DepthGuard() { --d; }
  } dg{eval_depth};
  line = c.range.line;

  if (auto* sc = std::get_if<ast::SimpleCommand>(&c.v)) {
    try {
      return Interp::run_simple(*this, *sc, tail);
    } catch (const Refused&) {
      return status = status::refused;
    }
  }
  if (auto* fd = std::get_if<ast::FunctionDef>(&c.v)) {
    functions[fd->name] = fd->body;  // shared with the parsed text, not copied
    status = 0;
    return 0;
  }

  // Compound commands: their redirections apply to the whole body.
  ProcsubScope procsubs(*this);
  FdSaver saver;
  if (!c.redirects.empty()) {
    std::vector<PlannedRedirect> planned;
    if (!plan_redirects(*this, c.redirects, planned)) {
      status = 2;
      return 2;
    }
    if (gate) {
      // The redirections of a compound command are actions like a command's own.
      SimplePlan rp;
      rp.redirects = planned;
      if (!gate_allows(*this, rp)) return status = status::refused;
    }
    if (!apply_redirects(*this, planned, saver)) {
      status = 2;
      return 2;
    }
    tail = false;  // the saved fds must be restored afterwards
  }
  int st = 0;
  try {
  std::visit(
      [&](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::BraceGroup>) {
          st = node.body ? eval_list(*node.body, tail) : 0;
        } else if constexpr (std::is_same_v<T, ast::Subshell>) {
          st = Interp::run_subshell(*this, node);
        } else if constexpr (std::is_same_v<T, ast::IfClause>) {
          st = Interp::run_if(*this, node, tail);
        } else if constexpr (std::is_same_v<T, ast::LoopClause>) {
          st = Interp::run_loop(*this, node);
        } else if constexpr (std::is_same_v<T, ast::ForClause>) {
          st = Interp::run_for(*this, node);
        } else if constexpr (std::is_same_v<T, ast::CaseClause>) {
          st = Interp::run_case(*this, node, tail);
        } else if constexpr (std::is_same_v<T, ast::ArithCommand>) {
          st = Interp::run_arith(*this, node);
        } else if constexpr (std::is_same_v<T, ast::ArithFor>) {
          st = Interp::run_arith_for(*this, node);
        } else if constexpr (std::is_same_v<T, ast::CondCommand>) {
          st = Interp::run_cond(*this, node);
        }
      },
      c.v);
  } catch (const Refused&) {
    st = status::refused;
  } catch (FatalError& e) {
    // Printed while the redirections are in place (`{ ...; } 2>/dev/null`), as in dash.
    if (!c.redirects.empty() && !e.message.empty()) {
      error(e.message);
      e.message.clear();
    }
    throw;
  }
  status = st;
  return st;
}

int Interp::run_if(Shell& sh, const ast::IfClause& n, bool tail) {
  for (const auto& br : n.branches) {
    ++sh.cond_depth;
    int c = br.condition ? sh.eval_list(*br.condition) : 0;
    --sh.cond_depth;
    if (sh.ctl != Ctl::none) return c;
    if (c == 0) return br.body ? sh.eval_list(*br.body, tail) : 0;
  }
  if (n.else_body) return sh.eval_list(*n.else_body, tail);
  return 0;
}

// Handles break/continue after one loop body: true when the loop must stop.
bool loop_control(Shell& sh) {
  if (sh.ctl == Ctl::brk) {
    if (--sh.ctl_count <= 0) sh.ctl = Ctl::none;
    return true;
  }
  if (sh.ctl == Ctl::cont) {
    if (--sh.ctl_count <= 0) {
      sh.ctl = Ctl::none;
      return false;
    }
    return true;  // continue an outer loop
  }
  return sh.ctl != Ctl::none;  // return / exit
}

int Interp::run_loop(Shell& sh, const ast::LoopClause& n) {
  int st = 0;
  ++sh.loop_depth;
  for (;;) {
    ++sh.cond_depth;
    int c = n.condition ? sh.eval_list(*n.condition) : 0;
    --sh.cond_depth;
    if (sh.ctl != Ctl::none) {
      if (loop_control(sh)) break;
      continue;
    }
    if ((c == 0) == n.until) break;
    st = n.body ? sh.eval_list(*n.body) : 0;
    if (sh.ctl != Ctl::none && loop_control(sh)) break;
  }
  --sh.loop_depth;
  sh.status = st;
  return st;
}

int Interp::run_for(Shell& sh, const ast::ForClause& n) {
  std::vector<std::string> items;
  if (n.has_in)
    sh.expand_words(n.words, items);
  else
    items = sh.params;
  int st = 0;
  ++sh.loop_depth;
  for (auto& item : items) {
    if (!sh.assign(n.var, std::move(item))) {
      if (sh.vars.last_refused) throw Refused{};
      st = 1;
      if (!sh.opt.interactive) throw FatalError{n.var + ": is read only", 2};
      break;
    }
    st = n.body ? sh.eval_list(*n.body) : 0;
    if (sh.ctl != Ctl::none && loop_control(sh)) break;
  }
  --sh.loop_depth;
  sh.status = st;
  return st;
}

int Interp::run_case(Shell& sh, const ast::CaseClause& n, bool tail) {
  std::string subject = sh.expand_string(n.subject);
  int result = 0;
  for (size_t i = 0; i < n.items.size(); ++i) {
    bool matched = false;
    for (const auto& pw : n.items[i].patterns) {
      std::string pat = sh.expand_pattern(pw);
      if (sh.opt.nocasematch && !sh.opt.posix ? pattern_match(ascii_lower(pat), ascii_lower(subject))
                                              : pattern_match(pat, subject)) {
        matched = true;
        break;
      }
    }
    if (!matched) continue;
    int st = 0;
    // ;& falls through into the following bodies without testing their patterns;
    // ;;& goes on testing the patterns after the body it ran.
    size_t j = i;
    for (; j < n.items.size(); ++j) {
      const auto& item = n.items[j];
      bool last = (!item.fallthrough && !item.test_next) || j + 1 == n.items.size();
      st = item.body ? sh.eval_list(*item.body, tail && last) : 0;
      if (sh.ctl != Ctl::none || !item.fallthrough) break;
    }
    result = st;
    if (sh.ctl != Ctl::none || j >= n.items.size() || !n.items[j].test_next) return st;
    i = j;
  }
  if (result != 0) return result;
  return 0;
}

int Interp::run_subshell(Shell& sh, const ast::Subshell& n) {
  pid_t pid = fork_subshell(sh, [] {}, [&] { return n.body ? sh.eval_list(*n.body, true) : 0; });
  if (pid < 0) return pid == kForkRefused ? status::refused : 2;
  return sh.wait_pid(pid);
}

int Interp::run_background(Shell& sh, const ast::AndOr& ao) {
  sh.reap_jobs();
  auto setup = [&] {
    if (sh.opt.monitor) return;
    // Non-interactive background commands ignore keyboard signals and read from
    // /dev/null unless redirected (POSIX 2.9.3).
    Shell::set_disposition(SIGINT, SIG_IGN);
    Shell::set_disposition(SIGQUIT, SIG_IGN);
    unique_fd nul(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (nul && !move_fd_to(nul, 0)) {
      sh.error(std::string("cannot redirect standard input: ") + std::strerror(errno));
      sh.child_exit(2);
    }
  };
  // Job control: the job is a process group of its own, not in the foreground.
  pid_t saved_pgid = sh.jc.pgid;
  bool saved_foreground = sh.jc.foreground;
  sh.jc.pgid = 0;
  sh.jc.foreground = false;
  pid_t pid = fork_subshell(sh, setup, [&] { return sh.eval_and_or(ao, true); });
  sh.jc.pgid = saved_pgid;
  sh.jc.foreground = saved_foreground;
  if (pid < 0) return pid == kForkRefused ? status::refused : 2;
  // In a session with its own pid namespace the shell speaks its numbering: read
  // now, while the job cannot have been reaped (one /proc read per background job).
  pid_t shown = sandbox::session_pid_of(pid);
  if (shown <= 0) shown = pid;
  add_background_job(sh, pid, shown, ao.range);
  sh.last_bg = pid;
  sh.last_bg_shown = shown;
  return 0;
}

int Interp::run_pipeline(Shell& sh, const ast::Pipeline& p) {
  const size_t n = p.commands.size();
  std::vector<pid_t> pids;
  pids.reserve(n);
  unique_fd prev_read;  // the previous member's output, this member's input
  bool refused = false;
  sh.out().flush();
  sh.err().flush();
  // shopt -s lastpipe with job control off: the last member runs in this shell, so
  // `... | read x` and `... | while read` loops keep their variables (as in bash).
  const bool in_shell_last = sh.opt.lastpipe && !sh.opt.monitor && n > 1;
  bool ran_last = false;
  int last_status = 0;
  for (size_t i = 0; i < n; ++i) {
    bool last = i + 1 == n;
    if (last && in_shell_last) {
      FdSaver saver;
      if (!saver.save(0) || !move_fd_to(prev_read, 0)) {
        sh.error(std::string("cannot connect the pipeline: ") + std::strerror(errno));
        break;
      }
      last_status = sh.eval_command(p.commands[i], false);
      sh.out().flush();
      saver.restore();
      ran_last = true;
      break;
    }
    unique_fd read_end, write_end;
    if (!last) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) < 0) {
        sh.error(std::string("cannot create pipe: ") + std::strerror(errno));
        break;
      }
      read_end.reset(fds[0]);
      write_end.reset(fds[1]);
    }
    auto setup = [&] {
      read_end.reset();  // the next member's
      if ((prev_read && !move_fd_to(prev_read, 0)) || (write_end && !move_fd_to(write_end, 1))) {
        sh.error(std::string("cannot connect the pipeline: ") + std::strerror(errno));
        sh.child_exit(2);
      }
    };
    pid_t pid = fork_subshell(sh, setup, [&] { return sh.eval_command(p.commands[i], true); });
    if (pid < 0) {
      refused = pid == kForkRefused;
      break;
    }
    pids.push_back(pid);
    prev_read = std::move(read_end);  // and write_end closes here: only the child writes
  }
  // Stopped early (no pipe, a refused fork): the last member started must see EOF or
  // EPIPE, not a reader lash keeps open while it waits for it.
  prev_read.reset();
  int st = 0, fail = 0;
  sh.pipestatus.clear();
  for (size_t i = 0; i < pids.size(); ++i) {
    int s = sh.wait_pid(pids[i]);
    st = s;
    if (s != 0) fail = s;
    sh.pipestatus.push_back(s);
  }
  if (ran_last) {
    st = last_status;
    if (st != 0) fail = st;
    sh.pipestatus.push_back(st);
  }
  if (pids.size() + (ran_last ? 1 : 0) < n) return refused ? status::refused : 2;
  if (sh.opt.pipefail) return fail;
  return st;
}

}  // namespace lash::exec
