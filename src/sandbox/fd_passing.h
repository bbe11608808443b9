// One message with at most one (or two) descriptors attached (SCM_RIGHTS) over a unix socket:
// the fd broker's replies and the watchdog's signal requests.
#pragma once
#include <sys/types.h>

#include <cstddef>

namespace lash::sandbox {

// Sends LEN bytes of DATA with FD attached (nothing attached when FD < 0). Retries
// EINTR and never raises SIGPIPE. Returns what sendmsg(2) returned.
ssize_t send_with_fd(int sock, const void* data, size_t len, int fd);

// One recvmsg(2) of at most LEN bytes into DATA, with FLAGS (MSG_DONTWAIT, say).
// *FD gets the attached descriptor, close-on-exec, or -1. A message cut short (its
// bytes or its descriptors) is -1 with EMSGSIZE and keeps no descriptor. EINTR is
// returned, not retried: the caller may have a reason to give up.
ssize_t recv_with_fd(int sock, void* data, size_t len, int* fd, int flags);
// The same with up to two descriptors (the watchdog's relay: an answer pipe and the
// target's pidfd). FDS[i] is -1 where none arrived.
ssize_t send_with_fds(int sock, const void* data, size_t len, const int* fds, int nfds);
ssize_t recv_with_fds(int sock, void* data, size_t len, int* fds, int nfds, int flags);

}  // namespace lash::sandbox
