// The session mount namespace: the writable grants re-bound noexec (so the ELF
// interpreter cannot map a program the user wrote there: Landlock's EXECUTE right is
// only checked by execve, not by mmap), and read-only binds over the `protect` paths
// (hooks and repository config inside writable grants), which Landlock alone cannot
// express (it cannot subtract a subtree from a grant). Made once per session by a short-lived
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

// All paths absolute. NOEXEC paths are bound nosuid,nodev,noexec first (in order),
// then PROTECT paths read-only, then /dev/null over each MASK path (unix sockets:
// connect() then fails). Protect paths that do not exist are listed in `missing`,
// not created. Must be called before lash starts threads.
Result<SessionNamespaces> make_session_namespace(const std::vector<std::string>& noexec,
                                                 const std::vector<std::string>& protect,
                                                 const std::vector<std::string>& mask,
                                                 const Capabilities& caps);

// Pathname unix sockets in the usual places (/run, /tmp, /dev/shm, XDG_RUNTIME_DIR,
// the directory of SSH_AUTH_SOCK), a few levels deep, that are not beneath any of
// KEEP. Landlock restricts connecting to them only from ABI 9.
std::vector<std::string> find_unix_sockets(const std::vector<std::string>& keep);

}  // namespace lash::sandbox
