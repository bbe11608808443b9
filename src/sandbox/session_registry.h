// The registry of running lash sessions (issue 14): one small JSON file per session,
// <dir>/<id>.json, in a private per-user directory (0700, owned by the user, opened
// without following links): $XDG_RUNTIME_DIR/lash/sessions, else
// /run/user/UID/lash/sessions, else /tmp/lash-UID/sessions, else (that one taken by
// another user) $LASH_HOME/run/sessions.
//
// An entry says who the session is (id, lash's pid and its start time in ticks, uid,
// profile, tty, start time). How to reach the session's processes is never taken from
// the file (a user writes their own registry; root reads it): it is found from the
// kernel by lash's verified pid each time:
//  - the session cgroup lash moved itself into (named lash-PID[-N]): cgroup.kill;
//  - the session's pid namespace (lash's pid_for_children differs from its own pid
//    namespace): every process in it, its init included, whose death takes the rest;
//  - else the processes of the same user carrying LASH_SESSION=ID in their
//    environment (a session without a sandbox has no kernel boundary to kill by).
// An entry whose pid is gone, or is now another process, is removed when read.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace lash::sandbox::registry {

struct Entry {
  std::string id;
  pid_t pid = 0;
  uid_t uid = 0;
  std::string user, profile, tty;
  int64_t started = 0;        // Unix time, seconds
  uint64_t proc_start = 0;    // field 22 of /proc/PID/stat: tells a reused pid apart
};

// This user's registry directory, made if missing; "" when no private one can be had.
// A /tmp/lash-UID that is not the user's private directory (a link, another owner,
// rights for others: another user got there first) is never used: then
// $LASH_HOME/run/sessions, and a warning for take_warning().
std::string own_dir();
// The warning about a refused registry directory (Problem/Suggestion lines), the first
// time only in this process; "" otherwise.
std::string take_warning();

// Writes (or rewrites) this process's entry, atomically (temp file + rename).
Result<void> register_session(const Entry& e);
// Removes it (session end).
void unregister_session(const std::string& id);

// lash's own start time in ticks (for Entry::proc_start).
uint64_t proc_start_of(pid_t pid);

struct Live {
  Entry entry;
  std::string reach;       // "cgroup /sys/fs/cgroup/...", "pid namespace", "environment"
  int processes = 0;       // lash included
  double cpu_seconds = 0;  // user + system of the live processes (and reaped children of lash)
  std::vector<pid_t> members;  // lash's numbering: lash first
  std::string cgroup_dir;  // the session cgroup, "" when none
};

// Live sessions: this user's, or every user's (ALL_USERS, for root). Dead entries are
// pruned. Sorted by start time.
std::vector<Live> list_sessions(bool all_users);

// Kills session ID (never the caller's own session; the caller checks). Returns what
// was done ("cgroup.kill", "pid namespace", ...) or an Error (no such session).
Result<std::string> kill_session(const std::string& id, bool all_users);

}  // namespace lash::sandbox::registry
