// The seccomp argument filter (seccomp_filter.h), run by a small interpreter of the
// classic BPF instructions it uses, over every ABI it covers. The kernel tests run it
// for real; this also reaches the x32 ABI, which kernels here often leave out, and
// arguments whose upper half is not zero.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sandbox/seccomp_filter.h"

using namespace lash::sandbox;

namespace {

// Runs PROG on DATA. Only the instructions the filter is made of are known; anything
// else, a jump out of the program or a load out of seccomp_data fails the test.
uint32_t run(const std::vector<sock_filter>& prog, const seccomp_data& data) {
  unsigned char bytes[sizeof data];
  std::memcpy(bytes, &data, sizeof data);
  uint32_t a = 0;
  size_t pc = 0;
  for (int steps = 0; steps < 10000; ++steps) {
    REQUIRE(pc < prog.size());
    const sock_filter& i = prog[pc];
    switch (i.code) {
      case BPF_LD | BPF_W | BPF_ABS:
        REQUIRE(i.k + 4 <= sizeof data);
        std::memcpy(&a, bytes + i.k, 4);
        ++pc;
        break;
      case BPF_ALU | BPF_AND | BPF_K: a &= i.k; ++pc; break;
      case BPF_JMP | BPF_JEQ | BPF_K: pc += 1 + (a == i.k ? i.jt : i.jf); break;
      case BPF_JMP | BPF_JGT | BPF_K: pc += 1 + (a > i.k ? i.jt : i.jf); break;
      case BPF_JMP | BPF_JGE | BPF_K: pc += 1 + (a >= i.k ? i.jt : i.jf); break;
      case BPF_JMP | BPF_JSET | BPF_K: pc += 1 + ((a & i.k) != 0 ? i.jt : i.jf); break;
      case BPF_JMP | BPF_JA: pc += 1 + i.k; break;
      case BPF_RET | BPF_K: return i.k;
      default: FAIL("unexpected BPF instruction " << i.code); return 0;
    }
  }
  FAIL("the program does not end");
  return 0;
}

struct Abi {
  const char* name;
  uint32_t audit_arch, scmp_arch;
};
const Abi kAbis[] = {{"x86-64", AUDIT_ARCH_X86_64, SCMP_ARCH_X86_64},
                     {"x32", AUDIT_ARCH_X86_64, SCMP_ARCH_X32},
                     {"i386", AUDIT_ARCH_I386, SCMP_ARCH_X86}};

uint32_t call(const std::vector<sock_filter>& prog, const Abi& abi, const char* name,
              std::initializer_list<uint64_t> args) {
  seccomp_data d{};
  int nr = seccomp_syscall_resolve_name_arch(abi.scmp_arch, name);
  REQUIRE(nr >= 0);
  d.nr = nr;
  d.arch = abi.audit_arch;
  size_t i = 0;
  for (uint64_t v : args) d.args[i++] = v;
  return run(prog, d);
}

constexpr uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr uint32_t kEperm = SECCOMP_RET_ERRNO | EPERM;
constexpr uint32_t kEnosys = SECCOMP_RET_ERRNO | ENOSYS;

}  // namespace

TEST_CASE("argument filter: pid-addressed calls only for pid 0, on every ABI") {
  auto prog = build_arg_filter(false);
  REQUIRE(prog.ok());
  for (const Abi& abi : kAbis) {
    CAPTURE(std::string(abi.name));
    bool wide = abi.audit_arch == AUDIT_ARCH_X86_64;
    for (const char* name : {"sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr",
                             "migrate_pages", "move_pages"}) {
      CAPTURE(name);
      CHECK(call(*prog, abi, name, {0, 8, 0x1000}) == kAllow);
      CHECK(call(*prog, abi, name, {1234, 8, 0x1000}) == kEperm);
      // The kernel reads the pid as an int, from the low half, as the filter does.
      if (wide) CHECK(call(*prog, abi, name, {(1ULL << 32) | 1234, 8, 0x1000}) == kEperm);
    }
    CHECK(call(*prog, abi, "prlimit64", {0, RLIMIT_FSIZE, 0x1000, 0}) == kAllow);
    CHECK(call(*prog, abi, "prlimit64", {77, RLIMIT_FSIZE, 0, 0x1000}) == kAllow);  // reading
    CHECK(call(*prog, abi, "prlimit64", {77, RLIMIT_FSIZE, 0x1000, 0}) == kEperm);
    // A pointer whose low half is 0 is not NULL on a 64-bit ABI.
    if (wide) CHECK(call(*prog, abi, "prlimit64", {77, RLIMIT_FSIZE, 0x7f0000000000ULL, 0}) == kEperm);
    CHECK(call(*prog, abi, "setpriority", {PRIO_PROCESS, 0, 5}) == kAllow);
    CHECK(call(*prog, abi, "setpriority", {PRIO_PROCESS, 77, 5}) == kEperm);
    CHECK(call(*prog, abi, "setpriority", {PRIO_PGRP, 0, 5}) == kEperm);
    CHECK(call(*prog, abi, "setpriority", {PRIO_USER, 0, 5}) == kEperm);
    CHECK(call(*prog, abi, "ioprio_set", {1, 0, 0x6000}) == kAllow);
    CHECK(call(*prog, abi, "ioprio_set", {1, 77, 0x6000}) == kEperm);
    CHECK(call(*prog, abi, "ioprio_set", {2, 0, 0x6000}) == kEperm);
    CHECK(call(*prog, abi, "ioprio_set", {3, 0, 0x6000}) == kEperm);
    // Not filtered: reading, and calls that only act on the caller.
    CHECK(call(*prog, abi, "getpriority", {PRIO_USER, 77}) == kAllow);
    CHECK(call(*prog, abi, "sched_getaffinity", {77, 8, 0x1000}) == kAllow);
  }
}

TEST_CASE("argument filter: no setuid or setgid mode, on every ABI") {
  auto prog = build_arg_filter(false);
  REQUIRE(prog.ok());
  for (const Abi& abi : kAbis) {
    CAPTURE(std::string(abi.name));
    for (uint64_t bit : {uint64_t{S_ISUID}, uint64_t{S_ISGID}}) {
      CAPTURE(bit);
      CHECK(call(*prog, abi, "chmod", {0x1000, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "fchmod", {3, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "fchmodat", {3, 0x1000, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "fchmodat2", {3, 0x1000, 0755 | bit, 0}) == kEperm);
      CHECK(call(*prog, abi, "creat", {0x1000, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "mknod", {0x1000, S_IFREG | 0755 | bit, 0}) == kEperm);
      CHECK(call(*prog, abi, "mknodat", {3, 0x1000, S_IFREG | 0755 | bit, 0}) == kEperm);
      CHECK(call(*prog, abi, "open", {0x1000, O_WRONLY | O_CREAT, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "openat", {3, 0x1000, O_WRONLY | O_CREAT, 0755 | bit}) == kEperm);
      CHECK(call(*prog, abi, "openat", {3, 0x1000, O_WRONLY | O_TMPFILE, 0755 | bit}) == kEperm);
      // Without O_CREAT or O_TMPFILE the mode is not used: allowed.
      CHECK(call(*prog, abi, "openat", {3, 0x1000, O_RDONLY, 0755 | bit}) == kAllow);
      // Garbage in the high half does not hide a bit.
      if (abi.audit_arch == AUDIT_ARCH_X86_64) CHECK(call(*prog, abi, "chmod", {0x1000, (7ULL << 32) | bit}) == kEperm);
    }
    CHECK(call(*prog, abi, "chmod", {0x1000, 01777}) == kAllow);
    CHECK(call(*prog, abi, "openat", {3, 0x1000, O_WRONLY | O_CREAT, 0644}) == kAllow);
    CHECK(call(*prog, abi, "mknod", {0x1000, S_IFIFO | 0644, 0}) == kAllow);
    CHECK(call(*prog, abi, "mkdir", {0x1000, 02775}) == kAllow);  // a setgid directory grants nothing
  }
}

TEST_CASE("argument filter: every number of every ABI reaches the right answer") {
  // Numbers around and between the filtered ones (the search halves on them).
  auto prog = build_arg_filter(false);
  REQUIRE(prog.ok());
  for (const Abi& abi : kAbis) {
    CAPTURE(std::string(abi.name));
    uint32_t base = abi.scmp_arch == SCMP_ARCH_X32 ? 0x40000000U : 0;
    for (uint32_t nr = base; nr < base + 600; ++nr) {
      char* name = seccomp_syscall_resolve_num_arch(abi.scmp_arch, static_cast<int>(nr));
      std::string n = name ? name : "";
      free(name);
      seccomp_data d{};
      d.nr = static_cast<int>(nr);
      d.arch = abi.audit_arch;
      // All arguments 0 except a mode with both bits: only the mode rules refuse,
      // and only the calls that take a mode there; openat2 is always ENOSYS.
      for (auto& arg : d.args) arg = 06000;
      uint32_t got = run(*prog, d);
      CAPTURE(n);
      // A number its table does not have (x32|279, x86-64's move_pages; x86-64's 533,
      // x32's) is ENOSYS in the kernel; the filter may refuse it sooner by the rules
      // of the call the other ABI has there.
      if (n.empty() && abi.audit_arch == AUDIT_ARCH_X86_64) CHECK((got == kAllow || got == kEperm));
      else if (n == "openat2") CHECK(got == kEnosys);
      else if (n == "chmod" || n == "fchmod" || n == "fchmodat" || n == "fchmodat2" || n == "creat" ||
               n == "mknod" || n == "mknodat")
        CHECK(got == kEperm);
      else if (n == "setpriority" || n == "ioprio_set" || n == "sched_setaffinity" || n == "sched_setscheduler" ||
               n == "sched_setparam" || n == "sched_setattr" || n == "migrate_pages" || n == "move_pages" ||
               n == "prlimit64")
        CHECK(got == kEperm);  // 06000 is not pid 0
      else if (n == "open" || n == "openat")
        CHECK(got == kAllow);  // 06000 has neither O_CREAT nor O_TMPFILE
      else
        CHECK(got == kAllow);
    }
  }
}

TEST_CASE("argument filter joined to the session filter: both decide, as stacked") {
  lash::sandbox::SandboxPlan plan;
  plan.seccomp = true;
  plan.deny_memfd_exec = true;
  auto session = build_seccomp(plan);
  auto args = build_arg_filter(false);
  REQUIRE(session.ok());
  REQUIRE(args.ok());
  auto joined = join_filters(*args, *session);
  CHECK(joined.size() == session->size() + args->size());
  for (const Abi& abi : kAbis) {
    CAPTURE(std::string(abi.name));
    CHECK(call(joined, abi, "chmod", {0x1000, 04755}) == kEperm);       // the argument filter
    CHECK(call(joined, abi, "ptrace", {16, 77, 0, 0}) == kEperm);       // the session filter
    CHECK(call(joined, abi, "memfd_create", {0x1000, 0}) == kEperm);    // the session filter
    CHECK(call(joined, abi, "clone3", {0x1000, 88}) == kEnosys);        // the session filter
    CHECK(call(joined, abi, "openat2", {3, 0x1000, 0x2000, 24}) == kEnosys);
    CHECK(call(joined, abi, "chmod", {0x1000, 0755}) == kAllow);
    CHECK(call(joined, abi, "getpid", {}) == kAllow);
  }
  seccomp_data d{};
  d.arch = AUDIT_ARCH_AARCH64;  // unknown arches: killed by the session filter
  d.nr = 90;
  uint32_t got = run(joined, d);
  CHECK((got & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW);
  CHECK((got & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ERRNO);
}

TEST_CASE("argument filter: openat2 is ENOSYS for programs, kept for the fd broker") {
  auto programs = build_arg_filter(false);
  auto broker = build_arg_filter(true);
  REQUIRE(programs.ok());
  REQUIRE(broker.ok());
  for (const Abi& abi : kAbis) {
    CAPTURE(std::string(abi.name));
    CHECK(call(*programs, abi, "openat2", {3, 0x1000, 0x2000, 24}) == kEnosys);
    CHECK(call(*broker, abi, "openat2", {3, 0x1000, 0x2000, 24}) == kAllow);
    CHECK(call(*broker, abi, "chmod", {0x1000, 04755}) == kEperm);  // the rest holds there too
  }
  // Other arches are the session filter's to kill, not this one's.
  seccomp_data d{};
  d.arch = AUDIT_ARCH_AARCH64;
  d.nr = 90;
  CHECK(run(*programs, d) == kAllow);
}
