// seccomp backend: the filter is built once per session with libseccomp and exported
// as a BPF program; the child only installs that program (no libseccomp after fork).
#pragma once
#include <linux/filter.h>

#include <vector>

#include "base/result.h"
#include "sandbox/plan.h"

namespace lash::sandbox {

// The enforcement.md filter: EPERM for ptrace, process_vm_*, io_uring_*, the mount
// family, pivot_root, kexec, bpf, perf_event_open, the keyctl family, module loading,
// open_by_handle_at, setns, new user namespaces (clone/unshare with CLONE_NEWUSER; clone3 is
// ENOSYS so libc falls back to clone), TIOCSTI/TIOCLINUX; with plan.deny_memfd_exec
// also memfd_create and execveat(AT_EMPTY_PATH).
Result<std::vector<sock_filter>> build_seccomp(const SandboxPlan& plan);

}  // namespace lash::sandbox
