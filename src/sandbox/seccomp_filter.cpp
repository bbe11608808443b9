// Built in the parent, once: libseccomp allocates and is not async-signal-safe, so
// the child gets only the exported BPF instructions (examples.md §2.2).
#include "sandbox/seccomp_filter.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
};

Result<void> rule(scmp_filter_ctx ctx, uint32_t action, const char* name, unsigned n,
                  const scmp_arg_cmp* cmp) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return {};  // unknown to this libseccomp: nothing to refuse
  int rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
  if (rc != 0) return Error{"cannot add a seccomp rule", name, -rc, {}};
  return {};
}

Result<void> add_rules(scmp_filter_ctx ctx, const SandboxPlan& plan) {
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

Result<std::vector<sock_filter>> build_seccomp(const SandboxPlan& plan) {
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
  seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2);
  if (auto r = add_rules(ctx.get(), plan); !r) return r.error();
  return export_program(ctx.get());
}

}  // namespace lash::sandbox
