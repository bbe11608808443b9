// Command history: the editor's list (arrow keys, ^R), the `history` builtin and
// $LASH_HOME/history, which concurrent sessions share. Each session appends its
// entries under an exclusive flock and trims the file to HISTFILESIZE in place under
// the same lock, so no entry of another session is lost. The file is written only when
// the active profile would let the user write it (the engine decides the same
// redirection `>> $LASH_HOME/history` would be): a profile that keeps the user out of
// $LASH_HOME keeps the history out too. Entries are stored as bash does with
// HISTTIMEFORMAT: a `#EPOCH` line, then the entry's lines (multi-line commands stay whole).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "exec/shell.h"

namespace lash::interactive {

class History {
 public:
  // MAY_WRITE: asked before every write (the profile may change in the session).
  History(exec::Shell& sh, std::string path, std::function<bool()> may_write);
  // Reads the file (its last HISTSIZE entries) into the list and the editor.
  void load();
  // A command as typed: HISTCONTROL (ignorespace, ignoredups, ignoreboth,
  // erasedups) and HISTSIZE apply; appended to the file.
  void add(const std::string& entry);
  // The editor holds the entries (line_editor.h); a copy of them, oldest first.
  std::vector<std::string> entries() const;
  void clear();
  const std::string& path() const { return path_; }

 private:
  size_t size_limit() const;       // HISTSIZE, default 500
  size_t file_size_limit() const;  // HISTFILESIZE, default HISTSIZE
  void append_to_file(const std::string& entry);
  exec::Shell& sh_;
  std::string path_;
  std::function<bool()> may_write_;
};

// Parses the file format (for load and tests): entries in order.
std::vector<std::string> parse_history(const std::string& text);

// The `history` builtin: `history [N]`, `history -c`. Registered once; it lists the
// interactive session's history (none in scripts).
void register_history_builtin();
void set_active_history(History* h);

}  // namespace lash::interactive
