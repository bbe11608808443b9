// The session mount namespace: read-only binds over the `protect` paths (hooks and
// repository config inside writable grants), which Landlock alone cannot express (it
// cannot subtract a subtree from a grant). Made once per session by a short-lived
// helper; children enter it with setns(), so the per-spawn cost is two syscalls.
// Unprivileged lash needs a user namespace for this (mapping only its own uid);
// root uses a plain mount namespace.
#pragma once
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/caps.h"

namespace lash::sandbox {

struct SessionNamespaces {
  unique_fd user;                      // invalid for root (mount namespace only)
  unique_fd mnt;                       // invalid when nothing needed protecting
  std::vector<std::string> protected_paths;  // bound read-only
  std::vector<std::string> missing;    // protect paths that do not exist (not covered)
};

// PATHS are absolute. Paths that do not exist are listed in `missing`, not created.
// Must be called before lash starts threads.
Result<SessionNamespaces> make_protect_namespace(const std::vector<std::string>& paths, const Capabilities& caps);

}  // namespace lash::sandbox
