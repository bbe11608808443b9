// Internal to src/sandbox: the post-clone half of launch() and fork_shell().
// Everything a child needs is pre-built by the parent into these plain structs, so
// the child only reads memory and makes async-signal-safe system calls. launch()'s
// child shares the parent's memory (CLONE_VM): it writes nothing but its own stack
// and ChildArgs::result.
#pragma once
#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>

#include "sandbox/launch.h"
#include "sandbox/prepared.h"

namespace lash::sandbox::detail {

// The record of a failing child: written into ChildArgs::result by launch()'s child,
// sent over the status pipe by fork_shell's (one write, below PIPE_BUF).
struct StatusRecord {
  int step;         // ChildStep
  int err;          // errno
  int fd_op_index;  // -1 unless an fd_* step failed
};

struct ChildFdOp {
  FdOp::Kind kind;
  int fd;
  const char* path;  // Kind::open
  int flags;         // Kind::open, O_CLOEXEC already removed
  int from;          // Kind::dup
};

struct ChildArgs {
  const Prepared* prepared = nullptr;
  // Signals with a handler of lash's (note_signal_handler): reset to SIG_DFL before
  // the mask is cleared, so no lash handler runs in the child.
  const int* handled_signals = nullptr;
  std::size_t n_handled_signals = 0;
  const char* path = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const ChildFdOp* fd_ops = nullptr;
  std::size_t n_fd_ops = 0;
  const int* default_signals = nullptr;
  std::size_t n_default_signals = 0;
  const int* ignore_signals = nullptr;
  std::size_t n_ignore_signals = 0;
  pid_t pgid = -1;
  int foreground_tty = -1;  // SpawnSpec::foreground_tty
  const char* cwd = nullptr;  // lash's cwd, re-entered after joining the mount namespace
  rlim_t file_size_hard = RLIM_INFINITY;  // SpawnSpec::file_size_hard
  int extra_landlock = -1;  // SpawnSpec::extra_landlock
  bool in_place = false;  // exec_in_place: lash itself goes on if execve fails
  // Where launch()'s child (CLONE_VM) writes its failure; the parent reads it once
  // clone returns (CLONE_VFORK: after execve or exit). Untouched on success.
  StatusRecord* result = nullptr;
};

// launch()'s clone entry (ARG is a ChildArgs*): the whole child sequence. Returns
// only on failure, after writing *result, with the exit status (127: ENOENT, else
// 126); glibc's clone then ends the child.
int clone_child(void* arg);

// The sequence itself; returns only on failure. Used by run_child (after fork) and
// by exec_in_place (the `exec` builtin, no fork).
StatusRecord exec_sequence(const ChildArgs& a);

// fork_shell(): apply only the Prepared sandbox steps. Returns 0, or -1 with the
// failed step and errno stored in *rec. REMEMBER: this process keeps running under
// the sandbox (a subshell, a failed `exec`), so in_sandbox() becomes true. Never set
// in launch()'s child, which shares the parent's memory.
int apply_sandbox(const Prepared& p, const char* cwd, StatusRecord* rec, bool remember);

// The same for lash's fd broker, which keeps openat2 (it loads
// Prepared::seccomp_broker).
int apply_broker_sandbox(const Prepared& p, StatusRecord* rec);

// True in a process that already runs under the session sandbox.
bool in_sandbox();

// Files a program of the session must not reach through a redirection the launcher
// opens for it, however the path is spelled (/dev//fd/N, /proc/self/fd/N, links):
//  - the memory and environment files of a process (/proc/PID/mem, environ, maps,
//    pagemap, auxv, ...): opened before execve, in a child that shares or copies
//    lash's memory, they would hand the program lash's memory;
//  - files lash reserves (reserve_file: the audit log), which a child could reopen
//    for writing through lash's own descriptor.
// Checked on the opened fd (fstat, fstatfs, readlink of /proc/self/fd): async-signal
// safe, for the child and the fd broker.
bool refused_for_program(int fd);
// Adds the file open at FD to the reserved files (up to 8; the audit log). In lash,
// before the first fork.
void reserve_file(int fd);

// Write a failure record to fork_shell's status pipe (async-signal-safe).
void send_status(int fd, ChildStep step, int err, int index);

}  // namespace lash::sandbox::detail
