// `profile edit`: the editor works on a copy; only a copy that validates replaces
// the profile, so a typo never leaves a broken or looser profile behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "exec/session.h"
#include "exec/shell.h"
#include "policy/diag.h"
#include "policy/profile_loader.h"
#include "policy/session_select.h"
#include "policy/store.h"
#include "sandbox/compile.h"

namespace lash::exec {

int edit_profile_file(Shell& sh, const std::string& name, const std::string& path) {
  // The editor runs under the session's sandbox, which never lets a program write
  // lash's own state (enforcement.md). A copy anywhere the session's programs can
  // write could be rewritten by any of them between the editor's exit and lash's
  // reading it, so there is no place for the copy: refused, and said why.
  Session* session = current_session();
  if (session && session->active && sandbox::plan_without_context(*session->active).restrict_fs) {
    sh.error("profile edit: not in a session whose filesystem is sandboxed (profile: " + session->active->name +
             "): the editor could not write the copy, and no place it could write is safe from the "
             "session's other programs. Suggestion: edit from a session without a filesystem sandbox, "
             "e.g. lash -p default -c 'profile edit " + name + "'");
    return 1;
  }
  std::string home = policy::lash_home();
  ::mkdir(home.c_str(), 0700);
  ::mkdir((home + "/profiles").c_str(), 0700);
  auto current = policy::read_policy_file(path, 64 * 1024);
  if (!current) {
    sh.error("profile edit: " + current.error().message());
    return 1;
  }
  std::string text = *current ? **current : "[profile]\ndescription = " + name + "\n";
  // The edits of an earlier rejected attempt are where this one starts: a typo never
  // costs the user their work (they remove the file to start from the profile).
  const std::string rejected = path + ".rejected";
  auto kept = policy::read_policy_file(rejected, 64 * 1024);
  if (kept && *kept) {
    text = **kept;
    sh.err() << "profile edit: starting from your rejected edits kept in " << rejected
             << " (remove that file to start from the profile)\n";
  }
  std::string tmp = path + ".edit-XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) {
    sh.error("profile edit: cannot create a temporary copy: " + std::string(std::strerror(errno)));
    return 1;
  }
  bool wrote = write_all(fd, text);
  ::close(fd);
  if (!wrote) {
    ::unlink(tmp.c_str());
    sh.error("profile edit: cannot write the temporary copy");
    return 1;
  }
  const std::string* visual = sh.vars.get("VISUAL");
  const std::string* editor = sh.vars.get("EDITOR");
  std::string prog = visual && !visual->empty() ? *visual : editor && !editor->empty() ? *editor : "vi";
  std::string editor_path = prog.find('/') != std::string::npos ? prog : sh.find_command(prog);
  if (editor_path.empty()) {
    ::unlink(tmp.c_str());
    sh.error("profile edit: editor '" + prog + "' not found (set VISUAL or EDITOR)");
    return 1;
  }
  // A program like any other: the profile's spawn lists, the children's environment
  // and the session's sandbox (or its refusal) apply to the editor too.
  sh.flush_all();
  int st = sh.run_program(editor_path, {prog, tmp});
  if (st != 0) {
    ::unlink(tmp.c_str());
    sh.error("profile edit: the editor failed (status " + std::to_string(st) + "); '" + name + "' is unchanged");
    return 1;
  }
  auto edited = policy::read_policy_file(tmp, 64 * 1024);
  policy::Diags diags;
  bool ok = false;
  if (edited && *edited) {
    policy::ProfileFile f{name, policy::Source::user, path, **edited};
    ok = policy::parse_profile(f, diags).has_value();
  }
  if (!ok) {
    for (auto& d : diags) sh.err() << d.text() << '\n';
    // Kept, not thrown away: the next `profile edit NAME` starts from it.
    if (edited && *edited && ::rename(tmp.c_str(), rejected.c_str()) == 0) {
      sh.error("profile edit: the edited profile is invalid; '" + name + "' is unchanged. Your edits are kept in " +
               rejected + "; `profile edit " + name + "` continues from them");
      return 1;
    }
    ::unlink(tmp.c_str());
    sh.error("profile edit: the edited profile is invalid; '" + name + "' is unchanged");
    return 1;
  }
  ::unlink(tmp.c_str());
  // What was validated is what is written: a new file beside the profile, renamed
  // over it, so the profile is never seen half-written.
  std::string next = path + ".new-XXXXXX";
  struct stat old_st;
  mode_t mode = ::stat(path.c_str(), &old_st) == 0 ? (old_st.st_mode & 0777) : 0644;  // as profile create
  int out = ::mkostemp(next.data(), O_CLOEXEC);
  bool written = out >= 0 && ::fchmod(out, mode) == 0 && write_all(out, **edited) && ::fsync(out) == 0;
  int err = errno;
  if (out >= 0) ::close(out);
  if (written && ::rename(next.c_str(), path.c_str()) != 0) {
    written = false;
    err = errno;
  }
  if (!written) {
    sh.error("profile edit: cannot replace " + path + ": " + std::strerror(err));
    if (out >= 0) ::unlink(next.c_str());
    return 1;
  }
  ::unlink(rejected.c_str());  // saved: the earlier rejected edits are superseded
  return 0;
}

}  // namespace lash::exec
