// Built in the parent, once: libseccomp allocates and is not async-signal-safe, so
// the child gets only the exported BPF instructions (examples.md §2.2).
#include "sandbox/seccomp_filter.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstddef>
#include <string>
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
  if (auto r = add_rules(ctx.get(), plan); !r) return r.error();
  return export_program(ctx.get());
}

// ---- the argument filter, written out rather than made by libseccomp ----
//
// libseccomp took 0.5 ms here for the program above and 2 ms once these argument
// rules joined it (its BPF generation grows fast with argument comparisons over three
// ABIs), every session start. This program is generated in microseconds and stacked
// on the session filter, which kills unknown arches; here they are allowed. x86 only,
// as the session filter's ABIs: lash is built for x86-64.
namespace {

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

// ioprio_set "which" for a pid (include/uapi/linux/ioprio.h; not in glibc).
constexpr uint32_t kIoprioWhoProcess = 1;

// One comparison of one argument. The kernel reads these arguments as int, unsigned
// int or umode_t, i.e. from the low 32 bits; a test on a 64-bit ABI that also looks at
// the high half only ever refuses more.
struct Cmp {
  enum Kind { nonzero, not_equal, has_bits } kind;
  unsigned arg;
  uint32_t value;  // not_equal: the value; has_bits: the mask, all of whose bits must be set
};
// A refusal when every comparison holds; several rules for one call refuse when any does.
struct ArgRule {
  const char* syscall;
  std::vector<Cmp> all;
  uint32_t ret;
};

std::vector<ArgRule> arg_rules(bool keep_openat2) {
  const uint32_t eperm = SECCOMP_RET_ERRNO | EPERM;
  std::vector<ArgRule> rules;
  // Another process's limits, priority, CPUs, scheduling, I/O priority and memory
  // placement: prlimit on lash itself could silence its audit log (RLIMIT_FSIZE) or
  // kill it (RLIMIT_CPU); on a process outside the session, the same. Only pid 0.
  for (const char* name : kSelfOnly) rules.push_back({name, {{Cmp::nonzero, 0, 0}}, eperm});
  // prlimit64(pid, resource, new, old): reading another process's limits (new NULL)
  // shows what /proc/PID/limits shows; setting them needs pid 0.
  rules.push_back({"prlimit64", {{Cmp::nonzero, 0, 0}, {Cmp::nonzero, 2, 0}}, eperm});
  // setpriority(which, who, prio) and ioprio_set(which, who, ioprio): only the caller
  // by "process, 0". The process-group and user forms reach processes outside the
  // session even with who = 0 (lash's own group in a script, every process of the
  // uid), so any other "which" is refused, as is any other "who".
  rules.push_back({"setpriority", {{Cmp::not_equal, 0, PRIO_PROCESS}}, eperm});
  rules.push_back({"setpriority", {{Cmp::nonzero, 1, 0}}, eperm});
  rules.push_back({"ioprio_set", {{Cmp::not_equal, 0, kIoprioWhoProcess}}, eperm});
  rules.push_back({"ioprio_set", {{Cmp::nonzero, 1, 0}}, eperm});
  // No new setuid or setgid files: a file made so in a writable grant outlives the
  // session, where nosuid no longer covers it. Each bit is its own rule. mkdir is not
  // filtered: a setgid directory only passes its group on to new files.
  for (uint32_t bit : {static_cast<uint32_t>(S_ISUID), static_cast<uint32_t>(S_ISGID)}) {
    for (const ModeArg& m : kChmod) rules.push_back({m.name, {{Cmp::has_bits, m.mode, bit}}, eperm});
    // open/openat use the mode for O_CREAT and for O_TMPFILE (linked in later; the
    // kernel takes O_TMPFILE only with both of its bits, which the mask asks for).
    for (const OpenArgs& o : kOpen)
      for (uint32_t make : {static_cast<uint32_t>(O_CREAT), static_cast<uint32_t>(O_TMPFILE)})
        rules.push_back({o.name, {{Cmp::has_bits, o.flags, make}, {Cmp::has_bits, o.mode, bit}}, eperm});
  }
  // openat2 carries flags and mode in memory a filter cannot read (seccomp_filter.h).
  if (!keep_openat2) rules.push_back({"openat2", {}, SECCOMP_RET_ERRNO | ENOSYS});
  return rules;
}

// A program under construction, with forward jumps resolved once their target is known.
class Asm {
 public:
  size_t here() const { return prog_.size(); }
  void stmt(uint16_t code, uint32_t k) { prog_.push_back(BPF_STMT(code, k)); }
  // A conditional jump: JEQ k; true falls through, false goes to a label (or the
  // other way round). Returns the instruction's index for fix_false/fix_true.
  size_t jeq(uint32_t k) {
    prog_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 0));
    return prog_.size() - 1;
  }
  bool fix_true(size_t at, size_t to) { return fix(prog_[at].jt, at, to); }
  bool fix_false(size_t at, size_t to) { return fix(prog_[at].jf, at, to); }
  void ja(uint32_t skip) { prog_.push_back(BPF_STMT(BPF_JMP | BPF_JA, skip)); }
  std::vector<sock_filter> take() { return std::move(prog_); }

 private:
  // Conditional jumps reach 255 instructions forward at most.
  static bool fix(uint8_t& field, size_t at, size_t to) {
    if (to <= at || to - at - 1 > 255) return false;
    field = static_cast<uint8_t>(to - at - 1);
    return true;
  }
  std::vector<sock_filter> prog_;
};

constexpr uint32_t kNr = offsetof(seccomp_data, nr);
constexpr uint32_t kArch = offsetof(seccomp_data, arch);
constexpr uint32_t arg_lo(unsigned i) { return offsetof(seccomp_data, args) + 8 * i; }  // little-endian
constexpr uint32_t arg_hi(unsigned i) { return arg_lo(i) + 4; }

// One comparison; jumps to be made to the rule's end when it does not hold are added
// to *fail (jeq indices whose "false" or "true" branch is the failure).
struct Fail {
  size_t at;
  bool on_true;
};
void emit_cmp(Asm& a, const Cmp& c, bool wide, std::vector<Fail>* fail) {
  constexpr uint16_t ld = BPF_LD | BPF_W | BPF_ABS;
  switch (c.kind) {
    case Cmp::nonzero:
    case Cmp::not_equal: {
      // Holds when the low word differs, or (64-bit ABIs) the high word is not zero.
      uint32_t v = c.kind == Cmp::nonzero ? 0 : c.value;
      a.stmt(ld, arg_lo(c.arg));
      size_t lo = a.jeq(v);  // true: look at the high word (or fail); false: holds
      if (!wide) {
        fail->push_back({lo, true});
        return;
      }
      a.stmt(ld, arg_hi(c.arg));
      size_t hi = a.jeq(0);  // true: the whole value is v, fails; false: holds
      fail->push_back({hi, true});
      // lo's false branch (holds) skips the high word's two instructions
      a.fix_false(lo, a.here());
      return;
    }
    case Cmp::has_bits: {
      a.stmt(ld, arg_lo(c.arg));
      a.stmt(BPF_ALU | BPF_AND | BPF_K, c.value);
      size_t j = a.jeq(c.value);  // false: a bit is missing, fails
      fail->push_back({j, false});
      return;
    }
  }
}

// The block of one syscall number: each rule in turn; refused by the first that holds,
// else allowed. Entered with the number already matched.
bool emit_block(Asm& a, const std::vector<const ArgRule*>& rules, bool wide) {
  for (const ArgRule* r : rules) {
    std::vector<Fail> fail;
    for (const Cmp& c : r->all) emit_cmp(a, c, wide, &fail);
    a.stmt(BPF_RET | BPF_K, r->ret);
    for (const Fail& f : fail)
      if (!(f.on_true ? a.fix_true(f.at, a.here()) : a.fix_false(f.at, a.here()))) return false;
  }
  a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return true;
}

// The section of one ABI: for every known number, "nr == N ? block : next". The
// number is loaded once: a block ends in returns, so only the "next" paths go on,
// with the accumulator untouched.
bool emit_section(Asm& a, const std::vector<ArgRule>& rules, const std::vector<uint32_t>& arches, bool wide) {
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kNr);
  std::vector<std::string> done;
  for (const ArgRule& first : rules) {
    std::string name = first.syscall;
    if (std::find(done.begin(), done.end(), name) != done.end()) continue;
    done.push_back(name);
    std::vector<const ArgRule*> mine;
    for (const ArgRule& r : rules)
      if (name == r.syscall) mine.push_back(&r);
    for (uint32_t arch : arches) {
      int nr = seccomp_syscall_resolve_name_arch(arch, name.c_str());
      if (nr < 0) continue;  // not a call of this ABI (or unknown to libseccomp)
      size_t j = a.jeq(static_cast<uint32_t>(nr));
      if (!emit_block(a, mine, wide)) return false;
      if (!a.fix_false(j, a.here())) return false;
    }
  }
  a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return true;
}

}  // namespace

Result<std::vector<sock_filter>> build_arg_filter(bool keep_openat2) {
  std::vector<ArgRule> rules = arg_rules(keep_openat2);
  Asm a;
  // arch == x86-64 (x86-64 and x32 numbers) ? that section : arch == i386 ? its : allow
  //   0 ld arch; 1 jeq x86-64 ? 5 : 2; 2 jeq i386 ? 4 : 3; 3 allow; 4 ja i386 section;
  //   5 the x86-64 section (x86-64 and x32 numbers, 64-bit arguments); the i386 section
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kArch);
  size_t is64 = a.jeq(AUDIT_ARCH_X86_64);
  size_t is32 = a.jeq(AUDIT_ARCH_I386);
  a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  size_t jump32 = a.here();
  a.ja(0);  // fixed below: ja reaches any distance
  bool ok = a.fix_true(is32, jump32) && a.fix_true(is64, a.here());
  ok = ok && emit_section(a, rules, {SCMP_ARCH_X86_64, SCMP_ARCH_X32}, true);
  size_t sec32 = a.here();
  ok = ok && emit_section(a, rules, {SCMP_ARCH_X86}, false);
  std::vector<sock_filter> prog = a.take();
  if (!ok || prog.size() > BPF_MAXINSNS) return Error{"cannot build the seccomp argument filter", "", E2BIG, {}};
  prog[jump32].k = static_cast<uint32_t>(sec32 - jump32 - 1);
  return prog;
}

}  // namespace lash::sandbox
