// The one way lash starts processes. External commands go through launch() (a
// vfork-style clone, child.cpp's sequence, execve); subshells, pipeline members and
// command substitutions go through fork_shell() (a real fork: the child runs lash
// code). Both apply the session sandbox in the child before any user code runs, in
// the order of child.cpp, and report a child-side failure to the parent.
#pragma once
#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include "base/result.h"
#include "sandbox/prepared.h"

namespace lash::sandbox {

// One file-descriptor step, applied in the child in order after the sandbox is on.
struct FdOp {
  enum class Kind { open, dup, close } kind = Kind::open;
  int fd = -1;            // target fd
  std::string path;       // Kind::open
  int flags = 0;          // Kind::open: O_* flags (O_CLOEXEC is never set on the result)
  int from = -1;          // Kind::dup: source fd
};

struct SpawnSpec {
  std::string path;                 // what execve gets: absolute or containing '/'
  std::vector<std::string> argv;
  std::vector<std::string> envp;    // complete "NAME=VALUE" list
  std::vector<FdOp> fd_ops;
  std::vector<int> ignore_signals;  // set to SIG_IGN in the child (e.g. INT/QUIT for '&')
  // Set to SIG_DFL in the child: signals lash itself ignores (e.g. TSTP/TTIN/TTOU/INT/
  // QUIT when interactive). Signals lash catches with a handler are reset to SIG_DFL
  // automatically; signals lash inherited as ignored stay ignored unless listed here.
  std::vector<int> default_signals;
  pid_t pgid = -1;                  // -1: stay in lash's group; 0: new group; >0: join
  // Job control: the terminal whose foreground the new group takes before execve (the
  // parent does the same after; whichever is first, the program never starts in the
  // background and stops on its first read). -1: none.
  int foreground_tty = -1;
  // The hard file-size limit the script set with `ulimit`, where lash keeps its own
  // higher for its audit log (Shell::script_file_size_hard): the child's soft and hard
  // limits are lowered to it. RLIM_INFINITY: nothing to lower.
  rlim_t file_size_hard = RLIM_INFINITY;
  // A further Landlock ruleset (O_CLOEXEC fd) applied after the session's sandbox, with
  // NO_NEW_PRIVS: a plugin narrowed to its manifest. Landlock layers only ever narrow,
  // so the child is never wider than the session. -1: none.
  int extra_landlock = -1;
};

// Which child-side step failed (reported to the parent).
// `sandbox` is a generic sandbox step; the later values name the exact step.
enum class ChildStep : int {
  none = 0, sandbox, fd_open, fd_dup, fd_close, exec,
  signals, process_group, cgroup, namespaces, rlimits, no_new_privs, landlock, seccomp,
  close_fds, dumpable, capabilities
};

// A short name for messages: "exec", "landlock", "fd_open", ...
const char* step_name(ChildStep step);

struct LaunchFailure {
  ChildStep step = ChildStep::none;
  int err = 0;          // errno of the failed step
  int fd_op_index = -1; // for fd_* steps: index into SpawnSpec::fd_ops
};

struct LaunchResult {
  pid_t pid = -1;                 // the child (already reaped-ready if it failed)
  LaunchFailure failure;          // step == none on success
};

// clone(CLONE_VM|CLONE_VFORK) + child.cpp sequence + execve. When the child fails
// before execve the failure is returned here and the child has exited with status
// 127 (ENOENT) or 126 (other); the caller must still reap pid. A clone failure is an
// Error.
Result<LaunchResult> launch(const Prepared& prepared, const SpawnSpec& spec);

// lash's signal handlers. Every change lash makes to a disposition (a handler, or
// back to SIG_DFL / SIG_IGN) is noted here, so that a child resets exactly the
// signals with a handler before it unblocks signals (one pass, not a query of all
// 64), and no lash handler can run in a child that shares lash's memory.
void note_signal_handler(int sig, bool has_handler);
// The signals noted as having a handler, written to OUT (room for 64). Returns how many.
std::size_t handled_signals(int* out);

// True in a process that already runs under the session sandbox (a subshell made by
// fork_shell with an active Prepared, or its children).
bool running_sandboxed();

// The `exec` builtin: the child sequence in lash itself, then execve, no fork.
// Returns only on failure. Steps already applied stay applied: after a failure
// the shell may be running under the sandbox (and with the redirections done), so
// an interactive shell should check the program exists before calling this.
LaunchFailure exec_in_place(const Prepared& prepared, const SpawnSpec& spec);

// fork a lash-internal helper (watchdog, namespace helper): no sandbox, no exec;
// the caller's child code must not return into the shell. Lives here so that every
// fork of lash is in the launcher (the lint test checks it).
pid_t fork_helper();
// A file of lash's own (the audit log, open at FD) that no program of the session may
// open through a redirection, whatever the path's spelling (child.h).
void reserve_file(int fd);

// fork a copy of the shell with the sandbox applied in the child. Returns 0 in the
// child, the child's pid in the parent. pgid as in SpawnSpec.
Result<pid_t> fork_shell(const Prepared& prepared, pid_t pgid = -1, int foreground_tty = -1);
// Makes PGID the foreground process group of the terminal TTY, with SIGTTOU blocked
// (a background caller would otherwise be stopped by it). Returns tcsetpgrp's answer.
int give_terminal(int tty, pid_t pgid);

}  // namespace lash::sandbox
