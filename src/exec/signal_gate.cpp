#include "exec/signal_gate.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "base/unique_fd.h"
#include "exec/output.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "policy/engine.h"
#include "policy/explain.h"
#include "sandbox/launch.h"
#include "sandbox/ns.h"

namespace lash::exec {
namespace {

int pidfd_open_(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }
int pidfd_signal(int fd, int sig) { return static_cast<int>(syscall(SYS_pidfd_send_signal, fd, sig, nullptr, 0)); }

// The parent of PID as /proc says (the host's numbering), or 0.
pid_t parent_of(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[512];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  const char* rp = strrchr(buf, ')');  // the name may hold spaces and parentheses
  int ppid = 0;
  char state;
  if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2) return 0;
  return ppid;
}

// lash or one of its descendants (a process orphaned by setsid and a double fork is
// not one: refused, the safe answer).
bool descends_from_lash(pid_t pid) {
  pid_t self = getpid();
  for (int depth = 0; depth < 256 && pid > 1; ++depth) {
    if (pid == self) return true;
    pid = parent_of(pid);
  }
  return false;
}

// Another lash session: the same program as this one.
bool is_lash(pid_t pid) {
  char a[PATH_MAX], b[PATH_MAX];
  std::string link = "/proc/" + std::to_string(pid) + "/exe";
  ssize_t n = readlink(link.c_str(), a, sizeof a - 1), m = readlink("/proc/self/exe", b, sizeof b - 1);
  if (n <= 0 || m <= 0) return false;
  a[n] = b[m] = '\0';
  return strcmp(a, b) == 0;
}

// Whether TARGET exists in the session's pid namespace (its /proc lists it).
bool in_session_namespace(pid_t target) {
  const sandbox::SessionNamespaceFds* ns = sandbox::session_namespaces();
  if (!ns || !ns->proc) return false;
  std::string name = std::to_string(target);
  struct stat st;
  return fstatat(ns->proc.get(), name.c_str(), &st, 0) == 0;
}

// kill 0 in a group lash does not lead: the session's members of it, then lash.
int signal_own_group(Shell& sh, int sig) {
  if (sandbox::translates_pids()) {
    pid_t broker = sh.services().broker_pid();
    pid_t skip = broker > 0 ? sandbox::session_pid_of(broker) : 0;
    if (int e = sandbox::signal_own_group_in_session(sig, skip > 0 ? skip : 0)) return e;
  } else {
    // No pid namespace: lash's own jobs in its group (their children are ended with
    // the session).
    pid_t group = getpgrp();
    for (const Job& j : sh.jobs)
      if (!j.done && getpgid(j.pid) == group) (void)kill(j.pid, sig);
  }
  return kill(getpid(), sig) == 0 ? 0 : errno;
}

}  // namespace

bool signal_target_outside(int64_t target) {
  if (target == 0) return false;  // the shell's own process group
  if (target < 0 || target > INT_MAX) return true;  // groups and -1: decided by the policy
  pid_t pid = static_cast<pid_t>(target);
  if (sandbox::translates_pids()) return !in_session_namespace(pid);
  return !descends_from_lash(pid);
}

int signal_not_a_job(Shell& sh, int64_t target, int sig, const std::string& arg) {
  if (target < INT_MIN || target > INT_MAX) return ESRCH;
  pid_t pid = static_cast<pid_t>(target);
  // The shell's own process group. Where lash leads it, it is the session's (lash and
  // what it started). Where lash was started inside another program's group, kill(0)
  // would also reach that program and its other children, outside the session: only
  // the session's members of the group are signalled, then lash itself.
  if (pid == 0) {
    if (getpgrp() == getpid() || !sh.gate) return kill(0, sig) == 0 ? 0 : errno;
    return signal_own_group(sh, sig);
  }
  // $$: lash itself, the shell's own process (not a number in the session's pid
  // namespace, where lash does not exist).
  if (pid == sh.shell_pid && pid == getpid()) return kill(pid, sig) == 0 ? 0 : errno;
  bool pidns = sandbox::translates_pids();
  // Pinned first (outside a pid namespace), checked after: a pid reused meanwhile is
  // refused by the check or fails on the stale pidfd.
  unique_fd fd;
  if (!pidns && pid > 0) {
    fd.reset(pidfd_open_(pid));
    if (!fd && errno != ENOSYS) return errno;  // before Linux 5.3: kill() by pid below
  }
  bool outside = signal_target_outside(target);
  if (outside && sh.gate) {
    policy::Capability cap = pid > 0 && !pidns && is_lash(pid) ? policy::Capability::session_manage
                                                                  : policy::Capability::job_control_others;
    // The same target text as kill's effects declaration (builtins/jobs.cpp), so that
    // `profile test` and the audit log name the action alike.
    if (!gate_allows_now(sh, policy::Builtin{cap, "kill " + arg})) return kSignalRefused;
  }
  // Granted to signal outside the session: a pid that is not in the session's pid
  // namespace is the host's, sent from lash itself (pinned by a pidfd).
  if (pidns && outside && pid > 0) {
    unique_fd granted(pidfd_open_(pid));
    if (!granted) return errno == ENOSYS ? (kill(pid, sig) == 0 ? 0 : errno) : errno;
    return pidfd_signal(granted.get(), sig) == 0 ? 0 : errno;
  }
  if (pidns) return sandbox::signal_from_session(target, sig);
  if (fd) return pidfd_signal(fd.get(), sig) == 0 ? 0 : errno;
  return kill(pid, sig) == 0 ? 0 : errno;
}

}  // namespace lash::exec
