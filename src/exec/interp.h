// Internal pieces of the interpreter shared between its .cpp files.
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include "base/unique_fd.h"
#include "base/status.h"
#include "exec/job_control.h"
#include "exec/shell.h"
#include "sandbox/launch.h"

namespace lash::exec {

struct SimplePlan;

struct Interp {
  // Expands and resolves a simple command (including a `command` prefix). The real
  // run and the dry run both plan through here.
  static bool plan(Shell& sh, const ast::SimpleCommand& sc, SimplePlan& p, bool& via_command);
  static int run_simple(Shell& sh, const ast::SimpleCommand& sc, bool tail);
  static int run_if(Shell& sh, const ast::IfClause& n, bool tail);
  static int run_loop(Shell& sh, const ast::LoopClause& n);
  static int run_for(Shell& sh, const ast::ForClause& n);
  static int run_case(Shell& sh, const ast::CaseClause& n, bool tail);
  static int run_subshell(Shell& sh, const ast::Subshell& n);
  static int run_arith(Shell& sh, const ast::ArithCommand& n);
  static int run_arith_for(Shell& sh, const ast::ArithFor& n);
  static int run_cond(Shell& sh, const ast::CondCommand& n);
  static int run_background(Shell& sh, const ast::AndOr& ao);
  static int run_pipeline(Shell& sh, const ast::Pipeline& p);
};

// Puts FD on TARGET in this process (a forked child setting up its 0 or 1), without
// close-on-exec, and gives FD up. False, with errno, when dup2 failed.
inline bool move_fd_to(unique_fd& fd, int target) {
  if (fd.get() == target) {  // dup2 would keep its close-on-exec flag
    if (::fcntl(target, F_SETFD, 0) != 0) return false;
    fd.release();
    return true;
  }
  if (::dup2(fd.get(), target) < 0) return false;
  fd.reset();
  return true;
}

// Before and after a sandboxed fork (user_files.cpp): the profile directories the
// subshell's `profile` builtins read.
void snapshot_profiles_for_subshell();
void use_profile_snapshot();

// fork_subshell's answer when max_processes refused the fork (status 126).
inline constexpr pid_t kForkRefused = -2;

// Forks a subshell (under the session sandbox) that runs `setup` then `body` and
// exits with body's status; a fatal error or `exit` inside ends only the subshell.
// Returns the child's pid, or -1 after printing why the fork failed, or kForkRefused
// after printing the max_processes refusal.
template <class Setup, class Body>
pid_t fork_subshell(Shell& sh, Setup&& setup, Body&& body) {
  if (sh.at_process_limit()) {
    sh.refuse_at_process_limit("start a subshell", nullptr);
    return kForkRefused;
  }
  sh.flush_all();
  // The sandboxed subshell may not read the profile directories; the `profile`
  // builtins in it answer from the copy taken here (store_snapshot.h).
  if (sh.prepared().active()) snapshot_profiles_for_subshell();
  auto pid = sandbox::fork_shell(sh.prepared(), job_fork_pgid(sh), job_fork_tty(sh));
  if (!pid.ok()) {
    sh.error("cannot fork: " + pid.error().message());
    return -1;
  }
  if (*pid != 0) {
    sh.child_started(*pid);
    job_process_started(sh, *pid);
    return *pid;
  }
  sh.become_subshell();
  if (sh.prepared().active()) use_profile_snapshot();
  setup();
  int st = 0;
  try {
    st = memory_guarded(body);
  } catch (const FatalError& e) {
    if (!e.message.empty()) sh.error(e.message);
    st = e.status;
  } catch (const Refused&) {
    st = 126;
  }
  if (sh.ctl == Ctl::exit) st = sh.exit_status_for_ctl;
  sh.child_exit(st);
}

}  // namespace lash::exec
