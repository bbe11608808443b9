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
//  - a /proc of the session's pid namespace (below), which shows only the session's
//    processes. Where no pid namespace could be made, a root session still gets a
//    private /proc mounted hidepid=ptraceable (a sandboxed process then sees only the
//    processes of its own Landlock domain; not hidepid=invisible, which lets members
//    of the gid= group, 0 by default, see everything).
// Unprivileged lash needs a user namespace for this (mapping only its own uid); root
// uses a plain mount namespace.
//
// The session's pid and IPC namespaces (issue 18). lash stays the parent of every
// process it starts; it only changes its pid_for_children:
//  - not root: lash itself unshares a user namespace mapping only its own uid and gid
//    (so it holds capabilities inside it, over nothing of the host's), then
//  - unshare(CLONE_NEWPID): lash stays in the host's pid namespace, its forks from
//    then on are born in the new one.
// The first helper forked after that (the mount namespace's, above) is pid 1 there
// and stays as the namespace's init: it makes the IPC namespace, mounts the session's
// /proc, ignores SIGCHLD (the kernel reaps orphans for it) and has
// PR_SET_PDEATHSIG(SIGKILL), so when lash dies, SIGKILL included, the kernel kills
// the init and with it every process of the namespace (setsid, nohup and double
// forks included). At session end lash kills every process of the namespace
// but the init (end_session_processes); the init goes when lash exits.
// What lash's own user namespace changes for lash: files of users and groups other
// than its own show as owned by the overflow ids (nobody/nogroup) in stat(), and
// getgroups() shows its other groups as the overflow gid; the kernel's access checks
// still use the real ids, so lash may open exactly what it could before. Its
// capabilities there reach only objects owned by that namespace (the session's mount
// and IPC namespaces), none of the host's.
#pragma once
#include <sys/types.h>

#include <cstdint>
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
  NamespaceSpec spec;           // what spawn_namespace_helper() sets up
  bool planned = false;         // start_session_namespace() done, not yet spawned
  bool init = false;            // this helper is the session pid namespace's init
  // Protected paths absent at start whose directory exists, and .git/commondir
  // beside them: one planted during the session would be run (hooks) or followed
  // (commondir: hooks and config elsewhere) by a later git outside the sandbox, and a
  // new file in a writable .git cannot be refused without breaking git (lock files),
  // so they are quarantined at session end instead (watchdog.h).
  std::vector<std::string> quarantine;
};
// Works out the helper's task (which protect paths exist, what to quarantine) without
// forking it: the watchdog is forked in between, outside the session's pid namespace.
Result<NamespaceHelper> start_session_namespace(const NamespaceSpec& spec, const Capabilities& caps);
// Forks the helper planned by start_session_namespace(); does nothing for a helper
// that had nothing to do. CLOSE_IN_CHILD (or -1): an fd of lash the helper must not
// hold (the watchdog's `go` pipe).
Result<void> spawn_namespace_helper(NamespaceHelper& helper, int close_in_child);
// Takes the namespaces and lets the helper exit. With REAP = false the helper is not
// waited for here: tearing down its copy of lash takes a few hundred microseconds,
// which lash spends on the ruleset meanwhile; reap_namespace_helper() collects it.
Result<SessionNamespaces> finish_session_namespace(NamespaceHelper& helper, bool reap = true);
void reap_namespace_helper(NamespaceHelper& helper);

// Applies SPEC in a new mount namespace: read-only root, writable and noexec binds,
// protect binds, masks, private /proc, in that order. Protect paths that do not exist
// are listed in `missing`, not created. Must be called before lash starts threads.
Result<SessionNamespaces> make_session_namespace(const NamespaceSpec& spec, const Capabilities& caps);

// The namespaces every process of the session shares, made once per lash process and
// kept beside the per-profile mount namespace. Kept general: a network namespace
// holder would add its fd here.
struct SessionNamespaceFds {
  unique_fd pid;    // lash's pid_for_children
  unique_fd ipc;    // children setns() into it
  unique_fd proc;   // O_PATH of that pid namespace's /proc (in the first session mount ns)
};
// lash (single-threaded, before the first helper fork): a user namespace of its own
// (not root) and unshare(CLONE_NEWPID). Once per process; the next helper forked is
// the namespace's init. On failure nothing of lash changed, except that a user
// namespace whose maps could not be written leaves lash unable to go on as itself
// (said in the error; the session then refuses the profile's commands).
Result<void> enter_session_pid_namespace(const Capabilities& caps);
// Tests of the other layers, whose twins must run in the host's pid namespace from
// the same process, turn it off (a test of the namespace itself prepares in a fork).
void set_session_pid_namespace(bool on);
bool session_pid_namespace_enabled();
// The namespaces once their init runs; null before, or when none could be made.
const SessionNamespaceFds* session_namespaces();
// lash is inside a user namespace it made itself (children do not join another).
bool in_own_user_namespace();
// True in the lash whose children are born in the session's pid namespace, while
// its own pid namespace is the host's: it speaks the session's numbering to the user
// and keeps the host's for waitpid. False in its forks (they are inside already).
bool translates_pids();
// True in lash and its forks once the session's pid namespace exists (a fork of lash
// is inside it, lash itself is not).
bool session_namespaces_inherited();
// HOST_PID as the session's processes see it (NSpid in /proc/PID/status); HOST_PID
// itself where nothing is translated; -1 when the process is gone.
pid_t session_pid_of(pid_t host_pid);
// Sends SIG to TARGET (a pid; -PGID; -1) as a process of the session sees it: from a
// short fork of lash, born in the session's pid namespace, through a pidfd, so that
// no process outside can be reached whatever the caller checked (the kill builtin,
// exec/signal_gate.h). Not under Landlock: each job has a domain of its own, which a
// fresh domain could not signal. Returns 0 or an errno (ESRCH: not in the session).
int signal_from_session(int64_t target, int sig);
// `kill 0` where lash's process group is not its own (lash does not lead it: `-c`
// from a script, a CI runner): the group holds processes outside the session (lash's
// parent and its other children), which kill(0) would reach. Sends SIG instead to
// the session's processes in that group, from a short fork in the session's pid
// namespace, which reads them from the session's /proc (there a group led from
// outside shows as 0). SKIP (session numbering, or 0): a helper of lash's to leave
// alone (the fd broker). The init is never signalled. lash itself is not in the
// namespace: the caller signals it. 0 or an errno.
int signal_own_group_in_session(int sig, pid_t skip);
// The init's host pid in the lash that made it, else -1 (lash's job code skips it).
pid_t session_init_pid();
// Kills every process of the session's pid namespace but its init (which dies with
// lash). Only in the process that made it; lash's children killed are left for its
// usual waitpid.
void end_session_processes();

// Pathname unix sockets not beneath any of KEEP: every one bound in this network
// namespace (/proc/net/unix), and those found in the usual places (/run, /var/run and
// XDG_RUNTIME_DIR and the directory of SSH_AUTH_SOCK three levels deep, the top
// level of /tmp and /dev/shm), which also catches sockets of other network namespaces.
// Landlock restricts connecting to them only from ABI 9.
std::vector<std::string> find_unix_sockets(const std::vector<std::string>& keep);

}  // namespace lash::sandbox
