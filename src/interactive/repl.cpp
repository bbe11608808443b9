#include "interactive/repl.h"

#include <signal.h>
#include <unistd.h>

#include "base/strutil.h"
#include "exec/builtin_api.h"
#include "exec/denial_limit.h"
#include "exec/idle_timeout.h"
#include "exec/job_control.h"
#include "exec/policy_gate.h"
#include "exec/session.h"
#include "exec/stack_guard.h"
#include "interactive/completion.h"
#include "interactive/history.h"
#include "interactive/inputrc.h"
#include "interactive/line_editor.h"
#include "interactive/prompt.h"
#include "policy/engine.h"
#include "policy/session_select.h"
#include "syntax/parser.h"

namespace lash::interactive {

using exec::Shell;

namespace {

std::string profile_name(Shell& sh) { return sh.gate ? sh.gate->profile_name : std::string("none"); }

// The engine's answer for an action, asked quietly (no audit record, no message):
// what the session would decide, for display and for lash's own bookkeeping.
bool engine_allows(Shell& sh, const policy::Action& a) {
  if (!sh.gate) return true;
  return sh.gate->engine().decide(a).allowed();
}

// Job control follows the profile's job_control_own as it is now (it may have been
// switched): refused, the shell starts no process groups and ^Z stops nothing.
void update_job_control(Shell& sh, bool& first) {
  if (sh.jc.tty < 0) return;
  bool allowed = engine_allows(sh, policy::Builtin{policy::Capability::job_control_own, "job control"});
  if (!allowed)
    exec::set_job_control(sh, false);
  else if (first)
    exec::set_job_control(sh, true);
  first = false;
}

syntax::ParseOptions parse_options(Shell& sh) {
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, exec::stack_bytes_left());
  po.filename = "lash";
  po.alias = [&sh](std::string_view name) -> const std::string* {
    auto it = sh.aliases.find(name);
    return it == sh.aliases.end() ? nullptr : &it->second;
  };
  return po;
}

enum class Parsed { complete, incomplete, error };

// Whether TEXT is whole commands (then it is run), still open (more lines), or wrong.
Parsed check(Shell& sh, const std::string& text, std::string& message) {
  syntax::ParseOptions po = parse_options(sh);
  syntax::Parser parser(text, po);
  for (;;) {
    auto item = parser.next();
    if (item.kind == syntax::Parser::Item::Kind::end) return Parsed::complete;
    if (item.kind == syntax::Parser::Item::Kind::error) {
      if (item.error.incomplete) return Parsed::incomplete;
      message = "syntax error: " + item.error.message;
      return Parsed::error;
    }
  }
}

[[noreturn]] void leave(Shell& sh, int status) {
  editor_cleanup();
  exec::hangup_jobs(sh);
  sh.exit_shell(status);
}

// `exit` or ^D with stopped jobs: said once; the next exit goes.
bool may_leave(Shell& sh) {
  if (!exec::has_stopped_jobs(sh) || sh.jc.exit_warned) return true;
  sh.jc.exit_warned = true;
  exec::write_all(2, "There are stopped jobs.\n");
  return false;
}

void run_line(Shell& sh, const std::string& text) {
  // At the prompt nothing is being evaluated: a command cut short by ^C or ^Z (an
  // exception through a loop or a `!`) must not leave its depth counters behind.
  sh.loop_depth = 0;
  sh.cond_depth = 0;
  syntax::ParseOptions po = parse_options(sh);
  po.text_is_complete = true;
  syntax::Parser parser(text, po);
  sh.source_name = "lash";
  for (;;) {
    auto item = parser.next();
    if (item.kind == syntax::Parser::Item::Kind::end) break;
    if (item.kind == syntax::Parser::Item::Kind::error) {
      sh.flush_all();
      exec::write_all(2, "lash: syntax error: " + item.error.message + "\n");
      sh.status = 2;
      break;
    }
    if (sh.opt.verbose) {
      auto& r = item.command->range;
      if (r.end > r.begin && r.end <= text.size()) exec::write_all(2, text.substr(r.begin, r.end - r.begin));
    }
    if (sh.opt.noexec) continue;
    try {
      exec::memory_guarded([&] { return sh.eval_list(*item.command); });
    } catch (const exec::FatalError& e) {
      if (!e.message.empty()) sh.error(e.message);
      sh.status = e.status;
    } catch (const exec::JobInterrupted& e) {
      sh.status = e.status;
      sh.ctl = exec::Ctl::none;
      sh.flush_all();
      break;  // the rest of the line is not run
    } catch (const exec::Refused&) {
      sh.status = 126;
    }
    sh.flush_all();
    if (exec::g_pending_any) sh.run_pending_traps();
    if (sh.ctl == exec::Ctl::exit) return;
    sh.ctl = exec::Ctl::none;
  }
}

}  // namespace

void run_interactive(Shell& sh) {
  bool first_prompt = true;
  std::string home = policy::lash_home();
  std::string hist_path = home + "/history";
  History history(sh, hist_path, [&sh, hist_path] {
    return engine_allows(sh, policy::Redirect{hist_path, policy::RedirectMode::append});
  });
  set_active_history(&history);

  EditorHooks hooks;
  hooks.complete = [&sh](std::string_view line, size_t start, size_t end) { return complete(sh, line, start, end); };
  hooks.refused_word = [&sh](std::string_view word) {
    return !sh.opt.nohighlight && command_refused(sh, word);
  };
  hooks.dry_run = [&sh](std::string_view line) -> std::string {
    const exec::BuiltinDef* profile = exec::find_builtin("profile");
    if (!profile || line.empty()) return {};
    std::vector<std::string> argv = {"profile", "test", profile_name(sh), std::string(line)};
    sh.flush_all();
    int saved = sh.status;
    profile->fn(sh, argv);
    sh.flush_all();
    sh.status = saved;
    return {};
  };
  hooks.signal_seen = [&sh]() {
    using S = EditorHooks::Signal;
    if (exec::g_pending[SIGHUP] && !sh.trap_set[SIGHUP]) {
      editor_cleanup();
      exec::hangup_jobs(sh);
      sh.exit_by_signal(SIGHUP);
    }
    if (exec::g_pending[SIGINT]) {
      exec::g_pending[SIGINT] = 0;
      if (sh.trap_set[SIGINT] && !sh.traps[SIGINT].empty()) {
        exec::g_pending[SIGINT] = 1;  // its trap runs before the next prompt
      }
      return S::interrupt;
    }
    if (exec::g_pending[SIGWINCH]) {
      exec::g_pending[SIGWINCH] = 0;
      return S::resize;
    }
    return S::other;
  };
  editor_init(std::move(hooks), load_inputrc(sh));
  history.load();

  std::string pending;
  for (;;) {
    bool continuation = !pending.empty();
    if (exec::denial_limit_reached()) exec::end_for_denials(sh);
    if (!continuation) {
      update_job_control(sh, first_prompt);
      if (sh.jc.tty >= 0) exec::notify_jobs(sh);
      if (exec::g_pending_any) {
        try {
          sh.run_pending_traps();
        } catch (const exec::FatalError& e) {
          if (!e.message.empty()) sh.error(e.message);
        }
        if (sh.ctl == exec::Ctl::exit) leave(sh, sh.exit_status_for_ctl);
        sh.ctl = exec::Ctl::none;
      }
    }
    const std::string* ps = sh.vars.get(continuation ? "PS2" : "PS1");
    std::string prompt = ps ? expand_prompt(sh, *ps, profile_name(sh)) : std::string();
    sh.flush_all();
    // Every wait for the terminal has the idle timeout, PS2 too (an open quote or a
    // here-doc body must not hold an idle login open).
    ReadResult r = editor_read(prompt, exec::idle_timeout_seconds(sh));
    if (r.status == ReadStatus::interrupted) {
      pending.clear();
      sh.status = 130;
      continue;
    }
    if (r.status == ReadStatus::timeout) {
      exec::write_all(2, "lash: timed out waiting for input: auto-logout\n");
      leave(sh, sh.status);
    }
    if (r.status == ReadStatus::eof) {
      if (continuation) {
        exec::write_all(2, "\nlash: syntax error: unexpected end of file\n");
        pending.clear();
        sh.status = 2;
        continue;
      }
      if (sh.opt.ignoreeof) {
        exec::write_all(2, "Use \"exit\" to leave the shell.\n");
        continue;
      }
      if (!may_leave(sh)) continue;
      exec::write_all(2, "exit\n");
      leave(sh, sh.status);
    }
    pending += r.text;
    pending += '\n';
    std::string message;
    Parsed p = check(sh, pending, message);
    if (p == Parsed::incomplete) continue;
    std::string text = std::move(pending);
    pending.clear();
    history.add(text);
    if (p == Parsed::error) {
      exec::write_all(2, "lash: " + message + "\n");
      sh.status = 2;
      continue;
    }
    sh.jc.command_text = text;
    run_line(sh, text);
    if (sh.ctl == exec::Ctl::exit) {
      sh.ctl = exec::Ctl::none;
      if (may_leave(sh)) leave(sh, sh.exit_status_for_ctl);
      continue;
    }
    sh.jc.exit_warned = false;  // a command in between: the warning is due again
  }
}

}  // namespace lash::interactive
