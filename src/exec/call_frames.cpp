// bash's view of the call stack and of the last pipeline, made into the arrays
// scripts read (FUNCNAME, BASH_SOURCE, BASH_LINENO, PIPESTATUS), and its
// pseudo-signal traps (ERR, DEBUG, RETURN). The interpreter only records frames and
// statuses; the arrays are built when read, so the common path pays nothing.
#include <string>
#include <vector>

#include "exec/shell.h"

namespace lash::exec {

void Shell::refresh_dynamic_array_slow(std::string_view name) {
  if (name == "PIPESTATUS") {
    std::vector<std::string> v;
    v.reserve(pipestatus.size());
    for (int s : pipestatus) v.push_back(std::to_string(s));
    if (pipestatus.empty()) v.push_back(std::to_string(status));
    set_array("PIPESTATUS", std::move(v));
    return;
  }
  bool funcname = name == "FUNCNAME", source = name == "BASH_SOURCE", lineno = name == "BASH_LINENO";
  if (!funcname && !source && !lineno) return;
  // Innermost first, as bash lists them; the script itself is the outermost ("main").
  std::vector<std::string> v;
  v.reserve(frames.size() + 1);
  for (size_t i = frames.size(); i-- > 0;) {
    const CallFrame& f = frames[i];
    if (funcname) v.push_back(f.func);
    else if (source) v.push_back(f.source);
    else v.push_back(std::to_string(f.line));
  }
  if (funcname) {
    if (frames.empty()) {  // bash: unset outside any function
      vars.unset(std::string(name));
      return;
    }
    v.push_back("main");
  } else if (source) {
    v.push_back(script_path);
  } else {
    v.push_back("0");
  }
  set_array(std::string(name), std::move(v));
}

void Shell::run_pseudo_trap(PseudoTrap which) {
  if (in_pseudo_trap || !pseudo_trap_set[which] || pseudo_traps[which].empty()) return;
  // Functions see ERR only under set -E, DEBUG and RETURN only under set -T (the
  // function that set RETURN sees it as it returns: function_depth counts from it).
  if (function_depth > 0) {
    if (which == kTrapErr && !opt.errtrace) return;
    if (which == kTrapDebug && !opt.functrace) return;
  }
  int saved_status = status;
  Ctl saved_ctl = ctl;
  in_pseudo_trap = true;
  ++cond_depth;  // a failure in the trap does not trigger set -e again
  struct Restore {
    Shell& sh;
    ~Restore() {
      sh.in_pseudo_trap = false;
      --sh.cond_depth;
    }
  } restore{*this};
  std::string action = pseudo_traps[which];  // the trap may reset itself
  ctl = Ctl::none;
  eval_string(action, "trap");
  if (ctl == Ctl::none) ctl = saved_ctl;
  if (ctl != Ctl::exit) status = saved_status;
}

}  // namespace lash::exec
