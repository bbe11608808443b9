// `jobs --session ID [--json]` (issue 14): the jobs of another lash session of the
// same user (root: of anyone), as the kernel shows them, since that session's job
// table is its own: its processes grouped by process group, each with its state and
// command line. Gated by job_control_others (jobs.cpp's effects).
#pragma once
#include <string>

namespace lash::exec {
class Shell;
}

namespace lash::builtins {
int session_jobs(exec::Shell& sh, const std::string& id, bool json_out);
}
