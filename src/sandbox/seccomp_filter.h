// seccomp backend: the filter is built once per session with libseccomp and exported
// as a BPF program; the child only installs that program (no libseccomp after fork).
#pragma once
#include <linux/filter.h>

#include <vector>

#include "base/result.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

// Who loads the program: the session's programs and subshells, or lash's fd broker,
// which alone keeps openat2 (it needs RESOLVE_NO_MAGICLINKS, broker.cpp).
enum class SeccompFor { programs, broker };

// The enforcement.md filter: EPERM for ptrace, process_vm_*, process_madvise,
// pidfd_getfd, kcmp, io_uring_*, the mount family, pivot_root, kexec, bpf,
// perf_event_open, the keyctl family, module loading, open_by_handle_at, setns, new
// user namespaces (clone/unshare with CLONE_NEWUSER; clone3 is ENOSYS so libc falls
// back to clone), TIOCSTI/TIOCLINUX; prlimit64 setting, setpriority, ioprio_set,
// sched_set{affinity,scheduler,param,attr}, migrate_pages and move_pages on any
// process but the caller (pid 0); a setuid or setgid mode in chmod, fchmod,
// fchmodat, fchmodat2, creat, mknod, mknodat, and open/openat with O_CREAT or
// O_TMPFILE; for programs, openat2 is ENOSYS (its mode is out of the filter's
// reach). With plan.deny_memfd_exec also memfd_create and execveat(AT_EMPTY_PATH).
Result<std::vector<sock_filter>> build_seccomp(const SandboxPlan& plan, SeccompFor who = SeccompFor::programs);

}  // namespace lash::sandbox
