// The session tmpdir: /tmp/lash-UID/NS-PID-XXXXXX (0700), inside a per-user directory
// (0700) that lash keeps. The watchdog removes a session's directory when the session
// ends, even by SIGKILL; a session killed before it had a watchdog (SIGKILL before any
// program ran or file was opened) left an empty /tmp/lash-UID-XXXXXX behind for good.
// Named after the pid (and pid namespace) of the lash that made it, such a leftover is
// now recognised and removed by a later session of the same user.
#pragma once
#include <string>
#include <vector>

#include "base/result.h"

namespace lash::sandbox {

// Made before compile() so that the policy layer (SessionEnv::tmpdir) and the plan see
// the same path; prepare() takes over its removal at exit. Where /tmp/lash-UID is not
// this user's private directory (another user made the name first: /tmp is shared),
// the directory is /tmp/lash-UID-XXXXXX, as before, and nothing is cleaned.
Result<std::string> make_session_tmpdir();

// The names of the entries of the directory open as DIRFD named "NS-PID-..." for this
// pid namespace NS whose PID has no process (kill(PID, 0) fails with ESRCH), except
// KEEP. Exposed for tests.
std::vector<std::string> stale_session_dirs(int dirfd, unsigned long ns, const std::string& keep);

}  // namespace lash::sandbox
