// Built in the parent, once: libseccomp allocates and is not async-signal-safe, so
// the child gets only the exported BPF instructions (examples.md §2.2).
#include "sandbox/seccomp_filter.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "base/file_size_limit.h"
#include "base/unique_fd.h"

namespace lash::sandbox {
namespace {

struct CtxDeleter {
  void operator()(scmp_filter_ctx c) const { seccomp_release(c); }
};
using Ctx = std::unique_ptr<void, CtxDeleter>;

// Refused outright with EPERM.
const char* const kDenied[] = {
    "ptrace", "process_vm_readv", "process_vm_writev",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "umount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount",
    "fsconfig", "fspick", "mount_setattr",
    "kexec_load", "kexec_file_load", "bpf", "perf_event_open",
    "keyctl", "add_key", "request_key",
    "init_module", "finit_module", "delete_module",
    "open_by_handle_at",  // bypasses path-based rules with CAP_DAC_READ_SEARCH
    "setns",              // would leave the session mount namespace (protect binds)
    // They take a pidfd, which a filter cannot tell from the caller's own: refused for
    // every target. process_madvise pages out or collapses another process's memory,
    // pidfd_getfd copies another process's descriptor (ptrace is refused already).
    "process_madvise", "pidfd_getfd",
    // kcmp compares another process's open files, memory and fs state; it has no
    // "self" form a filter can see (pid 0 is ESRCH), so it is refused too.
    "kcmp",
};

// Calls whose first argument names the process (or thread) they change, where 0 is
// the caller itself. The filter is one program for the whole session, loaded before
// exec and inherited by every descendant, so it cannot know the pid of the process
// that makes a call: only 0 is "self" here. glibc and the usual tools (nice, taskset,
// chrt, ionice, resource.setrlimit, os.sched_setaffinity(0, ...)) pass 0; a program that
// names itself, a child or one of its threads by number gets EPERM
// (docs/security.md). The get* variants stay open: what they read about another
// process is readable in /proc/PID/stat, /proc/PID/status and /proc/PID/limits.
const char* const kSelfOnly[] = {
    "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr",
    "migrate_pages",  // moves another process's pages between NUMA nodes
    "move_pages",     // the same page by page; with nodes NULL it reads their placement
};

// chmod family: the mode argument's position.
struct ModeArg {
  const char* name;
  unsigned mode;
};
const ModeArg kChmod[] = {{"chmod", 1}, {"fchmod", 1}, {"fchmodat", 2}, {"fchmodat2", 2},
                          {"creat", 1}, {"mknod", 1}, {"mknodat", 2}};
// open family: flags and mode positions. The mode only matters when a file is made.
struct OpenArgs {
  const char* name;
  unsigned flags, mode;
};
const OpenArgs kOpen[] = {{"open", 1, 2}, {"openat", 2, 3}};

// x86 ioprio_set "which" for a pid (include/uapi/linux/ioprio.h; not in glibc).
constexpr uint64_t kIoprioWhoProcess = 1;

Result<void> rule(scmp_filter_ctx ctx, uint32_t action, const char* name, unsigned n,
                  const scmp_arg_cmp* cmp) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return {};  // unknown to this libseccomp: nothing to refuse
  int rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
  if (rc != 0) return Error{"cannot add a seccomp rule", name, -rc, {}};
  return {};
}

Result<void> add_rules(scmp_filter_ctx ctx, const SandboxPlan& plan, SeccompFor who) {
  const uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
  for (const char* name : kDenied)
    if (auto r = rule(ctx, eperm, name, 0, nullptr); !r) return r;

  // New user namespaces: the flag is a bit inside the first argument.
  scmp_arg_cmp newuser = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER);
  if (auto r = rule(ctx, eperm, "unshare", 1, &newuser); !r) return r;
  if (auto r = rule(ctx, eperm, "clone", 1, &newuser); !r) return r;
  // clone3 passes its flags in memory, which a filter cannot read: ENOSYS makes libc
  // fall back to clone, where the flag is visible.
  if (auto r = rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, nullptr); !r) return r;

  // Terminal input injection. The request is compared on its low 32 bits, since the
  // kernel ignores the upper half of the int-sized command.
  for (unsigned long req : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}) {
    scmp_arg_cmp c = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, req);
    if (auto r = rule(ctx, eperm, "ioctl", 1, &c); !r) return r;
  }

  // Another process's limits, priority, CPUs, scheduling, I/O priority and memory
  // placement: prlimit on lash itself could silence its audit log (RLIMIT_FSIZE) or
  // kill it (RLIMIT_CPU); on a process outside the session, the same. Only pid 0.
  scmp_arg_cmp not_self0 = SCMP_A0(SCMP_CMP_NE, 0);
  for (const char* name : kSelfOnly)
    if (auto r = rule(ctx, eperm, name, 1, &not_self0); !r) return r;
  // prlimit64(pid, resource, new, old): reading another process's limits (new NULL)
  // reads /proc/PID/limits; setting them needs pid 0.
  scmp_arg_cmp prlimit_set_other[] = {SCMP_A0(SCMP_CMP_NE, 0), SCMP_A2(SCMP_CMP_NE, 0)};
  if (auto r = rule(ctx, eperm, "prlimit64", 2, prlimit_set_other); !r) return r;
  // setpriority(which, who, prio) and ioprio_set(which, who, ioprio): only the caller
  // by "process, 0". The process-group and user forms reach processes outside the
  // session even with who = 0 (lash's own group in a script, every process of the
  // uid), so any other "which" is refused, as is any other "who".
  scmp_arg_cmp prio_not_process = SCMP_A0(SCMP_CMP_NE, PRIO_PROCESS);
  scmp_arg_cmp who_not_self = SCMP_A1(SCMP_CMP_NE, 0);
  scmp_arg_cmp ioprio_not_process = SCMP_A0(SCMP_CMP_NE, kIoprioWhoProcess);
  for (const scmp_arg_cmp* c : {&prio_not_process, &who_not_self})
    if (auto r = rule(ctx, eperm, "setpriority", 1, c); !r) return r;
  for (const scmp_arg_cmp* c : {&ioprio_not_process, &who_not_self})
    if (auto r = rule(ctx, eperm, "ioprio_set", 1, c); !r) return r;

  // No new setuid or setgid files: a file made so in a writable grant outlives the
  // session, where nosuid no longer covers it. Each bit is its own rule (a filter
  // rule ANDs its comparisons; two rules OR). The masked compare looks at the low
  // bits only, so garbage in the upper half of the register does not hide a bit.
  // mkdir is not filtered: a setgid directory only passes its group on to new files.
  for (mode_t bit : {static_cast<mode_t>(S_ISUID), static_cast<mode_t>(S_ISGID)}) {
    for (const ModeArg& m : kChmod) {
      scmp_arg_cmp c{m.mode, SCMP_CMP_MASKED_EQ, bit, bit};
      if (auto r = rule(ctx, eperm, m.name, 1, &c); !r) return r;
    }
    // open/openat use the mode for O_CREAT and for O_TMPFILE (linked in later; the
    // kernel takes O_TMPFILE only with both of its bits, which the mask asks for).
    for (const OpenArgs& o : kOpen) {
      for (uint64_t make : {static_cast<uint64_t>(O_CREAT), static_cast<uint64_t>(O_TMPFILE)}) {
        scmp_arg_cmp c[] = {{o.flags, SCMP_CMP_MASKED_EQ, make, make}, {o.mode, SCMP_CMP_MASKED_EQ, bit, bit}};
        if (auto r = rule(ctx, eperm, o.name, 2, c); !r) return r;
      }
    }
  }
  // openat2 passes flags and mode in memory a filter cannot read. ENOSYS, as on
  // kernels before 5.6, which every caller of openat2 handles (glibc's open does not
  // use it). lash's fd broker keeps it (RESOLVE_NO_MAGICLINKS; it never asks for a
  // setuid or setgid mode).
  if (who == SeccompFor::programs)
    if (auto r = rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "openat2", 0, nullptr); !r) return r;

  if (plan.deny_memfd_exec) {
    // An anonymous file is executable without any path Landlock could check.
    if (auto r = rule(ctx, eperm, "memfd_create", 0, nullptr); !r) return r;
    scmp_arg_cmp empty_path = SCMP_A4(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH);
    if (auto r = rule(ctx, eperm, "execveat", 1, &empty_path); !r) return r;
  }
  return {};
}

// seccomp_export_bpf writes to an fd; read the program back from a memfd. A memfd
// is a file: RLIMIT_FSIZE cuts the write short, and libseccomp 2.5 takes a short
// write for success. A program cut at an instruction boundary that ends in a return
// would load as a shorter, weaker filter; so the limit is lifted for the export, and
// a program as long as the limit still in force is refused as possibly cut.
Result<std::vector<sock_filter>> export_program(scmp_filter_ctx ctx) {
  unique_fd mem(memfd_create("lash-seccomp", MFD_CLOEXEC));
  if (!mem) return sys_error("cannot create a memfd for the seccomp program", "", errno);
  FileSizeLimitLifted lifted;
  int rc = seccomp_export_bpf(ctx, mem.get());
  if (rc != 0) return Error{"cannot export the seccomp program", "", -rc, {}};
  struct stat st;
  if (fstat(mem.get(), &st) != 0) return sys_error("cannot size the seccomp program", "", errno);
  if (lifted.limit() != RLIM_INFINITY && static_cast<rlim_t>(st.st_size) >= lifted.limit())
    return Error{"the seccomp program does not fit under the file-size limit lash runs with (ulimit -f " +
                     std::to_string(lifted.limit() / 512) + "); refusing a filter that may be cut short",
                 "", EFBIG, {}};
  if (st.st_size <= 0 || st.st_size % sizeof(sock_filter) != 0 || st.st_size > 65536 * 8)
    return Error{"the exported seccomp program has a bad size", "", EPROTO, {}};
  std::vector<sock_filter> prog(static_cast<size_t>(st.st_size) / sizeof(sock_filter));
  size_t want = static_cast<size_t>(st.st_size), got = 0;
  char* dst = reinterpret_cast<char*>(prog.data());
  while (got < want) {
    ssize_t n = pread(mem.get(), dst + got, want - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return sys_error("cannot read the seccomp program", "", n < 0 ? errno : EIO);
    got += static_cast<size_t>(n);
  }
  return prog;
}

}  // namespace

Result<std::vector<sock_filter>> build_seccomp(const SandboxPlan& plan, SeccompFor who) {
  Ctx ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return Error{"cannot initialise libseccomp", "", ENOMEM, {}};
  // 32-bit programs use other syscall numbers: give the filter every ABI this x86-64
  // kernel accepts so the rules cover them too (unknown arches are killed).
#if defined(__x86_64__)
  for (uint32_t arch : {SCMP_ARCH_X86, SCMP_ARCH_X32}) {
    int rc = seccomp_arch_add(ctx.get(), arch);
    if (rc != 0 && rc != -EEXIST) return Error{"cannot add a seccomp architecture", "", -rc, {}};
  }
#endif
  // The child sets NO_NEW_PRIVS itself, right before loading.
  seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_NNP, 0);
  if (auto r = add_rules(ctx.get(), plan, who); !r) return r.error();
  return export_program(ctx.get());
}

}  // namespace lash::sandbox
