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
#include <cstring>
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
    CAPTURE(abi.name);
    bool wide = abi.audit_arch == AUDIT_ARCH_X86_64;
    for (const char* name : {"sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr",
                             "migrate_pages", "move_pages"}) {
      CAPTURE(name);
      CHECK(call(*prog, abi, name, {0, 8, 0x1000}) == kAllow);
      CHECK(call(*prog, abi, name, {1234, 8, 0x1000}) == kEperm);
      // The kernel reads the pid from the low half; a high half that is not zero is
      // refused rather than taken for 0.
      if (wide) CHECK(call(*prog, abi, name, {1ULL << 32, 8, 0x1000}) == kEperm);
    }
    CHECK(call(*prog, abi, "prlimit64", {0, RLIMIT_FSIZE, 0x1000, 0}) == kAllow);
    CHECK(call(*prog, abi, "prlimit64", {77, RLIMIT_FSIZE, 0, 0x1000}) == kAllow);  // reading
    CHECK(call(*prog, abi, "prlimit64", {77, RLIMIT_FSIZE, 0x1000, 0}) == kEperm);
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
    CAPTURE(abi.name);
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

TEST_CASE("argument filter: openat2 is ENOSYS for programs, kept for the fd broker") {
  auto programs = build_arg_filter(false);
  auto broker = build_arg_filter(true);
  REQUIRE(programs.ok());
  REQUIRE(broker.ok());
  for (const Abi& abi : kAbis) {
    CAPTURE(abi.name);
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
