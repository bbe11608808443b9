// What the session prepared once for its sandbox (ruleset fd, seccomp program,
// cgroup, limits). The shell core launches with an empty Prepared: plain fork/exec.
#pragma once

namespace lash::sandbox {

struct Prepared {
  // Filled in by the kernel-enforcement layer (issue 4). An empty Prepared applies
  // nothing, so the `default` profile runs exactly as a plain shell.
};

}  // namespace lash::sandbox
