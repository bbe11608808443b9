// A tiny process forked at session start that outlives lash only to clean up: it
// waits for lash to exit (pidfd) or to close the pipe, then kills the session cgroup
// and removes it and the session tmpdir. So a SIGKILLed lash leaves nothing. lash
// itself lives in the session cgroup (cgroup.h), so after EOF the watchdog waits until
// lash has exited or left the cgroup before it kills and removes; it never kills lash.
#pragma once
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"

namespace lash::sandbox {

struct Watchdog {
  unique_fd pipe;    // write end, O_CLOEXEC; closing it (or lash dying) triggers cleanup
  unique_fd joined;  // read end: one int, 0 once lash is in every cgroup, else an errno
  unique_fd relay;   // signal requests of lash's sandboxed forks (relay_signal)
  unique_fd go;      // write end: closing it lets the watchdog move lash (see below)
};

// Asks the watchdog over RELAY (Watchdog::relay) to send SIG to PID, which must be
// lash or a descendant of lash. PID is in the caller's numbering (the session's pid
// namespace, sandbox/ns.h): the caller pins it with a pidfd that goes with the request;
// 0 names lash itself, which is not in that namespace. For lash's own forks under the sandbox, whose kill(2)
// Landlock's signal scoping refuses outside their domain: `( sleep 9; kill $$ ) &`
// and one job signalling another are the script's business. Programs never hold the
// socket (close-on-exec, above lash's fd 9). Returns 0 or an errno (EPERM when the
// watchdog cannot be asked).
int relay_signal(int relay, pid_t pid, int sig);

// Must be called before lash starts threads: the watchdog is a fork of lash that
// keeps running lash code (it allocates). It leaves lash's process group (setsid),
// ignores terminal signals, keeps no fd but its pipe and the relay socket, and is not
// in the session cgroup.
// Its first act is to move lash into join_dirs (a subset of cgroup_dirs; prepare.h
// says why there) and answer on `joined`, once lash has closed `go` (lash forks the
// namespace helper first: a pending cgroup migration blocks every fork).
struct WatchdogSpec {
  std::vector<std::string> cgroup_dirs;  // killed and removed
  std::string tmpdir;                    // removed
  std::vector<std::string> join_dirs;    // lash is moved into these first
  std::vector<std::string> quarantine;   // renamed aside if they exist (quarantine_planted)
  // Every cgroup hierarchy lash may have made session directories in: the controller
  // ("" for v2) and where it is mounted.
  std::vector<std::pair<std::string, std::string>> hierarchies;
};
// (The watchdog first leaves any session cgroup it was born in, as when lash prepares
// again at a profile switch: in each hierarchy where /proc/self/cgroup shows it in a
// lash-* directory it moves itself to that directory's parent, so that killing the old
// session does not kill it and the old directory can be removed. A watchdog left in an
// earlier session's v1 directory would otherwise keep that directory from ever being
// removed.)
Result<Watchdog> start_watchdog(WatchdogSpec spec);

// Files that redirect a repository to code elsewhere (.git/commondir) and did not
// exist when the session started: renamed to a fresh NAME.lash-quarantined[.N] once
// the session's processes are dead, so a later git outside the sandbox does not
// follow them; removed when they cannot be renamed. Returns one line per path.
std::vector<std::string> quarantine_planted(const std::vector<std::string>& paths);

// Remove a directory tree without following symlinks (the tmpdir is user-writable).
void remove_tree(const std::string& path);
// The same for the entry NAME of the directory open as DIRFD (nothing is looked up
// again by path: a directory above swapped for a symlink changes nothing).
void remove_tree_at(int dirfd, const std::string& name);

}  // namespace lash::sandbox
