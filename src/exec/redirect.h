// Redirections: expanded once into a plan (targets, modes, here-document text),
// then either applied in the shell process with save/restore (builtins, compound
// commands, functions) or turned into child-side fd steps (external commands).
#pragma once
#include <string>
#include <vector>

#include "base/unique_fd.h"
#include "sandbox/launch.h"
#include "syntax/ast.h"

namespace lash::exec {

class Shell;

struct PlannedRedirect {
  enum class Kind { open, dup, close, heredoc } kind = Kind::open;
  int fd = 1;              // the fd being redirected
  ast::RedirOp op = ast::RedirOp::out;
  std::string path;        // Kind::open; Kind::dup of a name such as /dev/fd/3 (messages)
  int flags = 0;           // Kind::open
  int from = -1;           // Kind::dup
  std::string text;        // Kind::heredoc: the expanded body
  bool both = false;       // &>: also fd 2
  bool dynamic = false;    // dry run only: the target is only known when it runs
};

// Expands the redirections. On an error prints it and returns false.
bool plan_redirects(Shell& sh, const std::vector<ast::Redirect>& rs, std::vector<PlannedRedirect>& out);

// Restores the fds a redirection replaced, in reverse order, when it goes out of
// scope (unless keep() was called, as for `exec 3>file`).
class FdSaver {
 public:
  FdSaver() = default;
  // PERMANENT: the redirections stay (`exec 3>file`, keep() follows), so a copy that
  // cannot be made does not fail them (it only undoes a failed `exec`).
  explicit FdSaver(bool permanent) : permanent_(permanent) {}
  FdSaver(const FdSaver&) = delete;
  FdSaver& operator=(const FdSaver&) = delete;
  ~FdSaver() { restore(); }
  void restore();
  void keep();
  // Saves fd (if not saved yet in this scope). false when FD is open and no copy of it
  // can be made (a `ulimit -n` at or below the private range, 10 and up): replacing it
  // then would lose it for good, so the caller must not.
  bool save(int fd);

 private:
  struct Saved {
    int fd;
    int copy;  // -1: fd was closed
  };
  std::vector<Saved> saved_;
  bool permanent_ = false;
};

// Applies planned redirections to this process. On error prints it and returns false
// (fds already changed are restored by the saver).
bool apply_redirects(Shell& sh, const std::vector<PlannedRedirect>& rs, FdSaver& saver);

// Turns planned redirections into child-side steps. Here-document bodies are put
// into pipes/temporary files now; their fds are kept alive in `keep` until the
// child has started.
bool redirects_to_fd_ops(Shell& sh, const std::vector<PlannedRedirect>& rs,
                         std::vector<sandbox::FdOp>& ops, std::vector<unique_fd>& keep);

// The descriptor a name such as /dev/stderr or /dev/fd/3 stands for, or -1. In a
// sandboxed session (Shell::fd_names_are_shell_fds) the shell serves these names
// itself, as `>&2` and `<&3`: the fd broker is another process, so it would open its
// own descriptors, and a child under Landlock cannot reopen a file it was only handed.
// The file is not reopened: `>` does not truncate it and `<` cannot read what was
// opened write-only. The default profile reopens them, as other Linux shells do.
int shell_fd_named(const std::string& path);

// Whether FD is one a script may name as the source of N>&M (or as /dev/fd/N): below
// lash's private range and not one of lash's own descriptors.
bool script_fd(int fd);

// The fds {name}>file opened and not closed yet ({name}>&-): a sandbox passes them on.
const std::vector<int>& named_fds();
// The descriptors of the process substitutions open now (Shell::procsub_fds): the
// script named them, so script_fd counts them as its own.
void note_procsub_fds(const std::vector<int>& fds);

// Opens a file for a redirection in this process (O_CLOEXEC), honouring noclobber.
int open_redirect_target(Shell& sh, const PlannedRedirect& r);
// An fd from which the here-document text can be read.
unique_fd heredoc_fd(const std::string& text);
// "cannot create x: ..." style message.
std::string redirect_error(const PlannedRedirect& r, int err);

}  // namespace lash::exec
