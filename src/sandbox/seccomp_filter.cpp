// Built in the parent, once: libseccomp allocates and is not async-signal-safe, so
// the child gets only the exported BPF instructions (examples.md §2.2).
#include "sandbox/seccomp_filter.h"

#include <sys/socket.h>
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
#include <cstring>
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
  // A name libseccomp does not know (a typo, or a call newer than this libseccomp)
  // would silently leave its rule out: refuse to build the filter instead. (A call of
  // another ABI only, such as umount on x86-64, resolves to a pseudo number.)
  int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR)
    return Error{"libseccomp does not know the system call '" + std::string(name) +
                     "': refusing a seccomp filter without its rule", name, ENOSYS, {}};
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

  // vsock talks to the hypervisor and other VMs; no namespace confines it, so it would
  // be a way out beside the session's network namespace and relay.
  scmp_arg_cmp vsock = SCMP_A0(SCMP_CMP_EQ, AF_VSOCK);
  if (auto r = rule(ctx, eperm, "socket", 1, &vsock); !r) return r;
  if (auto r = rule(ctx, eperm, "socketpair", 1, &vsock); !r) return r;

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

// ---- the argument filter, written out rather than made by libseccomp ----
//
// libseccomp took 0.5 ms here for the program above and 2 ms once these argument
// rules joined it (its BPF generation grows fast with argument comparisons over three
// ABIs), every session start. This program is generated in microseconds and put in
// front of the session filter (join_filters), which kills unknown arches; here they
// go on to it. x86 only, as the session filter's ABIs: lash is built for x86-64. Its
// size is what a spawn pays for (the kernel checks, translates and JITs a filter
// when a child loads it, and runs it once per syscall number to fill seccomp's action
// cache): a search by halving, one block per call for x86-64 and x32 together, and
// one test for both mode bits keep it near 300 instructions.
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

// One comparison of one argument. The kernel reads pids, "which" values, flags and
// modes as int, unsigned int or umode_t, i.e. from the low 32 bits of the argument,
// and so do these tests; a pointer is tested whole on the 64-bit ABIs (a pointer
// whose low half is 0 is not NULL).
struct Cmp {
  enum Kind { nonzero, not_equal, has_bits, any_bits, pointer_set } kind;
  unsigned arg;
  uint32_t value;  // not_equal: the value; has_bits, any_bits: the mask (all, any of its bits set)
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
  rules.push_back({"prlimit64", {{Cmp::nonzero, 0, 0}, {Cmp::pointer_set, 2, 0}}, eperm});
  // setpriority(which, who, prio) and ioprio_set(which, who, ioprio): only the caller
  // by "process, 0". The process-group and user forms reach processes outside the
  // session even with who = 0 (lash's own group in a script, every process of the
  // uid), so any other "which" is refused, as is any other "who".
  rules.push_back({"setpriority", {{Cmp::not_equal, 0, PRIO_PROCESS}}, eperm});
  rules.push_back({"setpriority", {{Cmp::nonzero, 1, 0}}, eperm});
  rules.push_back({"ioprio_set", {{Cmp::not_equal, 0, kIoprioWhoProcess}}, eperm});
  rules.push_back({"ioprio_set", {{Cmp::nonzero, 1, 0}}, eperm});
  // No new setuid or setgid files: a file made so in a writable grant outlives the
  // session, where nosuid no longer covers it. mkdir is not filtered: a setgid
  // directory only passes its group on to new files.
  constexpr uint32_t kSetId = S_ISUID | S_ISGID;
  for (const ModeArg& m : kChmod) rules.push_back({m.name, {{Cmp::any_bits, m.mode, kSetId}}, eperm});
  // open/openat use the mode for O_CREAT and for O_TMPFILE (linked in later; the
  // kernel takes O_TMPFILE only with both of its bits, which the mask asks for).
  for (const OpenArgs& o : kOpen)
    for (uint32_t make : {static_cast<uint32_t>(O_CREAT), static_cast<uint32_t>(O_TMPFILE)})
      rules.push_back({o.name, {{Cmp::has_bits, o.flags, make}, {Cmp::any_bits, o.mode, kSetId}}, eperm});
  // openat2 carries flags and mode in memory a filter cannot read (seccomp_filter.h).
  if (!keep_openat2) rules.push_back({"openat2", {}, SECCOMP_RET_ERRNO | ENOSYS});
  return rules;
}

// A program under construction. Conditional jumps reach 255 instructions forward,
// which the layout below keeps them within; longer ones are JA (32-bit offsets).
class Asm {
 public:
  size_t here() const { return prog_.size(); }
  void stmt(uint16_t code, uint32_t k) { prog_.push_back(BPF_STMT(code, k)); }
  // A conditional jump with both branches on the next instruction, set by fix_*.
  size_t jump(uint16_t op, uint32_t k) {
    prog_.push_back(BPF_JUMP(BPF_JMP | op | BPF_K, k, 0, 0));
    return prog_.size() - 1;
  }
  size_t ja() {
    prog_.push_back(BPF_STMT(BPF_JMP | BPF_JA, 0));
    return prog_.size() - 1;
  }
  bool fix_true(size_t at, size_t to) { return fix8(prog_[at].jt, at, to); }
  bool fix_false(size_t at, size_t to) { return fix8(prog_[at].jf, at, to); }
  bool fix_ja(size_t at, size_t to) {
    if (to <= at) return false;
    prog_[at].k = static_cast<uint32_t>(to - at - 1);
    return true;
  }
  std::vector<sock_filter> take() { return std::move(prog_); }

 private:
  static bool fix8(uint8_t& field, size_t at, size_t to) {
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
constexpr uint16_t kLd = BPF_LD | BPF_W | BPF_ABS;

// One comparison. Jumps to be made to the rule's end when it does not hold are added
// to *fail: (instruction, whether its "true" branch is the failure).
using Fails = std::vector<std::pair<size_t, bool>>;
void emit_cmp(Asm& a, const Cmp& c, bool wide, Fails* fail) {
  switch (c.kind) {
    case Cmp::nonzero:
    case Cmp::not_equal:
      a.stmt(kLd, arg_lo(c.arg));
      fail->push_back({a.jump(BPF_JEQ, c.kind == Cmp::nonzero ? 0 : c.value), true});
      return;
    case Cmp::pointer_set: {
      a.stmt(kLd, arg_lo(c.arg));
      if (!wide) {
        fail->push_back({a.jump(BPF_JEQ, 0), true});
        return;
      }
      size_t lo = a.jump(BPF_JEQ, 0);  // true: look at the high half; false: set
      a.stmt(kLd, arg_hi(c.arg));
      fail->push_back({a.jump(BPF_JEQ, 0), true});  // the whole pointer is NULL
      a.fix_false(lo, a.here());
      return;
    }
    case Cmp::has_bits:
      a.stmt(kLd, arg_lo(c.arg));
      a.stmt(BPF_ALU | BPF_AND | BPF_K, c.value);
      fail->push_back({a.jump(BPF_JEQ, c.value), false});  // a bit is missing
      return;
    case Cmp::any_bits:
      a.stmt(kLd, arg_lo(c.arg));
      fail->push_back({a.jump(BPF_JSET, c.value), false});  // none of them
      return;
  }
}

// The block of one syscall number: each rule in turn; refused by the first that holds,
// else allowed. Ends in returns on every path.
bool emit_block(Asm& a, const std::vector<const ArgRule*>& rules, bool wide) {
  for (const ArgRule* r : rules) {
    Fails fail;
    for (const Cmp& c : r->all) emit_cmp(a, c, wide, &fail);
    a.stmt(BPF_RET | BPF_K, r->ret);
    for (auto [at, on_true] : fail)
      if (!(on_true ? a.fix_true(at, a.here()) : a.fix_false(at, a.here()))) return false;
  }
  a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return true;
}

struct Entry {
  uint32_t nr;
  std::vector<const ArgRule*> rules;
};

// Finds the number in A (sorted ENTRIES) by halving, then runs its block; a number
// not there is allowed. The kernel runs a new filter once per syscall number of the
// native and compat ABIs when it is loaded, to learn which numbers it always allows
// (seccomp's action cache): a linear chain of comparisons made that cost about
// 0.15 ms per spawn here, a search a few hops per number. Every subtree ends in
// returns, so a subtree needs no jump past its end.
bool emit_search(Asm& a, const std::vector<Entry>& entries, size_t lo, size_t hi, bool wide) {
  if (hi - lo <= 2) {
    for (size_t i = lo; i < hi; ++i) {
      size_t j = a.jump(BPF_JEQ, entries[i].nr);  // true: the block right after
      if (!emit_block(a, entries[i].rules, wide)) return false;
      if (!a.fix_false(j, a.here())) return false;
    }
    a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    return true;
  }
  size_t mid = lo + (hi - lo) / 2;
  // A > entries[mid - 1].nr: the upper half, by a JA (it may be far); else the lower.
  size_t split = a.jump(BPF_JGT, entries[mid - 1].nr);
  size_t far = a.ja();
  if (!a.fix_false(split, a.here())) return false;
  if (!emit_search(a, entries, lo, mid, wide)) return false;
  if (!a.fix_ja(far, a.here())) return false;
  return emit_search(a, entries, mid, hi, wide);
}

// x32 calls arrive under the x86-64 audit arch with this bit set in the number.
constexpr uint32_t kX32Bit = 0x40000000U;

// A call's number in ARCH, from libseccomp's tables. fchmodat2 (Linux 6.6) is newer
// than some libseccomp releases, and a kernel that has it would otherwise take a
// setuid mode through it: its number, 452 on all three ABIs, is written here.
int resolve(uint32_t arch, const char* name) {
  int nr = seccomp_syscall_resolve_name_arch(arch, name);
  if (nr >= 0 || std::strcmp(name, "fchmodat2") != 0) return nr;
  constexpr int kFchmodat2 = 452;
  return arch == SCMP_ARCH_X32 ? static_cast<int>(kX32Bit) | kFchmodat2 : kFchmodat2;
}

// The section of one audit arch. x86-64 and x32 share one: the x32 bit is cleared
// first and both ABIs' numbers are searched together, so each call has one block. An
// x32 number that is the x86-64 number of another call would make that impossible:
// none is, and the build fails if one ever were. (A number one table does not have,
// such as x32|279, x86-64's move_pages, or x86-64's 533, x32's move_pages, is ENOSYS
// in the kernel; here it may meet the other ABI's rules first, refused sooner.)
bool emit_section(Asm& a, const std::vector<ArgRule>& rules, const std::vector<uint32_t>& arches, bool wide) {
  std::vector<Entry> entries;
  std::vector<const char*> names;  // the call each entry is, for the collision check
  for (uint32_t arch : arches) {
    for (const ArgRule& r : rules) {
      int found = resolve(arch, r.syscall);
      if (found < 0) continue;  // not a call of this ABI (every name is known: checked by the caller)
      uint32_t nr = static_cast<uint32_t>(found) & ~kX32Bit;
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.nr == nr; });
      if (it == entries.end()) {
        entries.push_back({nr, {&r}});
        names.push_back(r.syscall);
        continue;
      }
      size_t i = static_cast<size_t>(it - entries.begin());
      if (std::strcmp(names[i], r.syscall) != 0) return false;  // two calls, one number
      if (std::find(it->rules.begin(), it->rules.end(), &r) == it->rules.end()) it->rules.push_back(&r);
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) { return x.nr < y.nr; });
  a.stmt(kLd, kNr);  // blocks end in returns: A holds the number all along the search
  if (wide) {
    size_t x32 = a.jump(BPF_JSET, kX32Bit);  // false: skip the AND
    a.stmt(BPF_ALU | BPF_AND | BPF_K, ~kX32Bit);
    if (!a.fix_false(x32, a.here())) return false;
  }
  return emit_search(a, entries, 0, entries.size(), wide);
}

}  // namespace

std::vector<sock_filter> join_filters(const std::vector<sock_filter>& first, const std::vector<sock_filter>& then) {
  std::vector<sock_filter> out;
  out.reserve(first.size() + then.size());
  for (size_t i = 0; i < first.size(); ++i) {
    sock_filter f = first[i];
    if (f.code == (BPF_RET | BPF_K) && f.k == SECCOMP_RET_ALLOW)
      f = BPF_STMT(BPF_JMP | BPF_JA, static_cast<uint32_t>(first.size() - i - 1));  // to THEN's start
    out.push_back(f);
  }
  out.insert(out.end(), then.begin(), then.end());
  return out;
}

Result<std::vector<sock_filter>> build_arg_filter(bool keep_openat2) {
  std::vector<ArgRule> rules = arg_rules(keep_openat2);
  // As in rule(): a name no ABI's table knows would drop its rule without a word.
  for (const ArgRule& r : rules)
    if (resolve(SCMP_ARCH_X86_64, r.syscall) == __NR_SCMP_ERROR)
      return Error{"libseccomp does not know the system call '" + std::string(r.syscall) +
                       "': refusing a seccomp filter without its rule", r.syscall, ENOSYS, {}};
  Asm a;
  //   0 ld arch; 1 jeq x86-64 ? 4 : 2; 2 jeq i386 ? 5 : 3; 3 allow; 4 ja x86-64 section;
  //   5 the i386 section; the x86-64 section (x86-64 and x32 numbers, 64-bit arguments)
  a.stmt(kLd, kArch);
  size_t is64 = a.jump(BPF_JEQ, AUDIT_ARCH_X86_64);
  size_t is32 = a.jump(BPF_JEQ, AUDIT_ARCH_I386);
  a.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  size_t to64 = a.ja();
  bool ok = a.fix_false(is64, is32) && a.fix_true(is64, to64) && a.fix_false(is32, to64 - 1) &&
            a.fix_true(is32, a.here());
  ok = ok && emit_section(a, rules, {SCMP_ARCH_X86}, false);
  ok = ok && a.fix_ja(to64, a.here());
  ok = ok && emit_section(a, rules, {SCMP_ARCH_X86_64, SCMP_ARCH_X32}, true);
  std::vector<sock_filter> prog = a.take();
  if (!ok || prog.size() > BPF_MAXINSNS) return Error{"cannot build the seccomp argument filter", "", E2BIG, {}};
  return prog;
}

}  // namespace lash::sandbox
