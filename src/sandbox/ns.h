// The session mount namespace, made once per session by a short-lived helper;
// children enter it with setns(), so the per-spawn cost is two syscalls. In it:
//  - every mount is read-only except the writable grants, re-bound read-write: chmod,
//    chown, utime and xattr changes are not Landlock rights, so only a read-only mount
//    refuses them on files outside the grants;
//  - the writable grants are noexec with an allowlist (the ELF interpreter cannot map
//    a program the user wrote there: Landlock's EXECUTE is only checked by execve);
//  - read-only binds over the `protect` paths (hooks and repository config inside
//    writable grants), which Landlock cannot express (it cannot subtract a subtree);
//    their parent directories (.git) are bound onto themselves, read-write: a mount
//    point cannot be renamed or removed, so .git cannot be swapped for a new one;
//  - /dev/null over pathname unix sockets outside the grants (Landlock < ABI 9);
//  - for a root session, a private /proc mounted hidepid=ptraceable: a sandboxed
//    process sees only the processes of its own Landlock domain (hidepid asks the
//    ptrace check, which Landlock refuses across domains), not lash or the host's.
//    Not hidepid=invisible: that lets members of the gid= group (0 by default, so
//    every root process) see everything.
// Unprivileged lash needs a user namespace for this (mapping only its own uid), and
// cannot mount a proc instance for the host's pid namespace; root uses a plain
// mount namespace.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/caps.h"

namespace lash::sandbox {

// Why a session namespace cannot be made by a user other than root here (ns.cpp and
// check_plan() say it the same way).
inline constexpr const char* kNeedsUserNamespace =
    "the session mount namespace needs a user namespace, which this kernel refuses";

struct NamespaceSpec {  // all paths absolute
  bool read_only_root = false;          // every mount read-only, then `writable` re-bound
  std::vector<std::string> writable;    // read-write (with read_only_root)
  std::vector<std::string> noexec;      // bound nosuid,nodev,noexec (read-write)
  std::vector<std::string> protect;     // bound read-only
  std::vector<std::string> pin;         // filled in: protect's parents, made mount points
  std::vector<std::string> mask;        // /dev/null bound over each (unix sockets)
  // Also mask every socket find_unix_sockets(mask_keep) finds. The helper looks for
  // them itself, while lash goes on with its own preparation.
  bool find_masks = false;
  std::vector<std::string> mask_keep;
  bool private_proc = false;            // root only: new /proc, hidepid=ptraceable

  bool empty() const {
    return !read_only_root && noexec.empty() && protect.empty() && mask.empty() && !find_masks && !private_proc;
  }
};

struct SessionNamespaces {
  unique_fd user;                      // invalid for root (mount namespace only)
  unique_fd mnt;                       // invalid when nothing was needed
  unique_fd proc;                      // O_PATH of the private /proc (for its Landlock rule)
  std::vector<std::string> protected_paths;  // bound read-only
  std::vector<std::string> missing;    // protect paths that do not exist (not covered)
};

// A namespace being set up by its helper process (start_session_namespace), so that
// lash can do other work meanwhile; finish_session_namespace() collects it.
struct NamespaceHelper {
  pid_t pid = -1;              // -1: nothing was needed, or already finished
  unique_fd ready, done;       // the helper's answer; closing `done` lets it exit
  uid_t uid = 0;
  bool private_proc = false;
  std::vector<std::string> present, missing;  // protect paths that exist / do not
  // Protected paths absent at start whose directory exists, and .git/commondir
  // beside them: one planted during the session would be run (hooks) or followed
  // (commondir: hooks and config elsewhere) by a later git outside the sandbox, and a
  // new file in a writable .git cannot be refused without breaking git (lock files),
  // so they are quarantined at session end instead (watchdog.h).
  std::vector<std::string> quarantine;
};
Result<NamespaceHelper> start_session_namespace(const NamespaceSpec& spec, const Capabilities& caps);
// Takes the namespaces and lets the helper exit. With REAP = false the helper is not
// waited for here: tearing down its copy of lash takes a few hundred microseconds,
// which lash spends on the ruleset meanwhile; reap_namespace_helper() collects it.
Result<SessionNamespaces> finish_session_namespace(NamespaceHelper& helper, bool reap = true);
void reap_namespace_helper(NamespaceHelper& helper);

// Applies SPEC in a new mount namespace: read-only root, writable and noexec binds,
// protect binds, masks, private /proc, in that order. Protect paths that do not exist
// are listed in `missing`, not created. Must be called before lash starts threads.
Result<SessionNamespaces> make_session_namespace(const NamespaceSpec& spec, const Capabilities& caps);

// Pathname unix sockets not beneath any of KEEP: every one bound in this network
// namespace (/proc/net/unix), and those found in the usual places (/run, /var/run and
// XDG_RUNTIME_DIR and the directory of SSH_AUTH_SOCK three levels deep, the top
// level of /tmp and /dev/shm), which also catches sockets of other network namespaces.
// Landlock restricts connecting to them only from ABI 9.
std::vector<std::string> find_unix_sockets(const std::vector<std::string>& keep);

}  // namespace lash::sandbox
