// seccomp backend: the filter is built once per session with libseccomp and exported
// as a BPF program; the child only installs that program (no libseccomp after fork).
#pragma once
#include <linux/filter.h>

#include <vector>

#include "base/result.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

// The enforcement.md filter, made with libseccomp: EPERM for ptrace, process_vm_*,
// process_madvise, pidfd_getfd, kcmp, io_uring_*, the mount family, pivot_root,
// kexec, bpf, perf_event_open, the keyctl family, module loading, open_by_handle_at,
// setns, new user namespaces (clone/unshare with CLONE_NEWUSER; clone3 is ENOSYS so
// libc falls back to clone), TIOCSTI/TIOCLINUX; with plan.deny_memfd_exec also
// memfd_create and execveat(AT_EMPTY_PATH). Unknown arches are killed.
Result<std::vector<sock_filter>> build_seccomp(const SandboxPlan& plan);

// The argument filter (written out, not made by libseccomp, for speed), for x86-64,
// x32 and i386, put in front of that one with join_filters: EPERM for prlimit64 setting a limit,
// setpriority, ioprio_set, sched_set{affinity,scheduler,param,attr}, migrate_pages
// and move_pages on any process but the caller (pid 0; the process-group and user
// forms always); a setuid or setgid mode in chmod, fchmod, fchmodat, fchmodat2,
// creat, mknod, mknodat, and open/openat with O_CREAT or O_TMPFILE. Unless
// KEEP_OPENAT2, openat2 is ENOSYS: its flags and mode are in memory a filter cannot
// read, and ENOSYS is what kernels before 5.6 answer, which every caller of openat2
// handles (glibc's open does not use it). lash's fd broker keeps openat2 for
// RESOLVE_NO_MAGICLINKS and never asks for more than mode 0777.
Result<std::vector<sock_filter>> build_arg_filter(bool keep_openat2);

// FIRST, then THEN: every "allow" of FIRST goes on to THEN. One program, as the two
// stacked would decide (their refusals are for different calls), loaded at once.
std::vector<sock_filter> join_filters(const std::vector<sock_filter>& first, const std::vector<sock_filter>& then);

}  // namespace lash::sandbox
