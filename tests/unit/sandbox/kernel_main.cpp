// The kernel tests need Landlock (ABI 6 for scoping), seccomp and a writable cgroup.
// Without them the whole executable is skipped (exit 77, reason printed), unless
// LASH_MUST_ENFORCE=1 (./dev test, CI), where a missing feature is a failure. What is
// missing is decided by the harness's own probe (machine_probe.h), never by lash's.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "machine_probe.h"
#include "sandbox/caps.h"

namespace sbtest {
const lash::sandbox::Capabilities& caps() {
  static const lash::sandbox::Capabilities c = lash::sandbox::probe_capabilities();
  return c;
}
const Machine& machine() {
  static const Machine m = probe_machine();
  return m;
}
}  // namespace sbtest

int main(int argc, char** argv) {
  const auto& c = sbtest::machine();
  const char* missing = nullptr;
  if (c.landlock_abi < 6) missing = "Landlock ABI 6 or newer";
  else if (!c.seccomp) missing = "seccomp";
  if (missing) {
    const char* must = std::getenv("LASH_MUST_ENFORCE");
    bool required = must && std::strcmp(must, "1") == 0;
    std::fprintf(stderr, "%s: this kernel lacks %s (%s)\n", required ? "FAIL" : "SKIP", missing,
                 "the harness's probe");
    return required ? 1 : 77;
  }
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
