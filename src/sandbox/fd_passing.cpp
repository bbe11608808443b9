#include "sandbox/fd_passing.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lash::sandbox {

ssize_t send_with_fd(int sock, const void* data, size_t len, int fd) {
  return send_with_fds(sock, data, len, &fd, fd >= 0 ? 1 : 0);
}

ssize_t send_with_fds(int sock, const void* data, size_t len, const int* fds, int nfds) {
  if (nfds < 0 || nfds > 2) {
    errno = EINVAL;
    return -1;
  }
  iovec iov{const_cast<void*>(data), len};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char ctl[CMSG_SPACE(2 * sizeof(int))] = {};
  if (nfds > 0) {
    m.msg_control = ctl;
    m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
  }
  ssize_t n;
  do n = sendmsg(sock, &m, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n;
}

ssize_t recv_with_fd(int sock, void* data, size_t len, int* fd, int flags) {
  int fds[2] = {-1, -1};
  ssize_t n = recv_with_fds(sock, data, len, fds, 1, flags);
  *fd = fds[0];
  return n;
}

ssize_t recv_with_fds(int sock, void* data, size_t len, int* fds, int nfds, int flags) {
  for (int i = 0; i < nfds; ++i) fds[i] = -1;
  if (nfds < 1 || nfds > 2) {
    errno = EINVAL;
    return -1;
  }
  iovec iov{data, len};
  alignas(cmsghdr) char ctl[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctl;
  m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
  ssize_t n = recvmsg(sock, &m, flags | MSG_CMSG_CLOEXEC);
  if (n < 0) return n;
  // Every descriptor that arrived is taken or closed, so that none leaks: the control
  // buffer is padded to 8 bytes, so one more than NFDS can arrive without MSG_CTRUNC.
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      size_t got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < got; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        if (i < size_t(nfds))
          fds[i] = fd;
        else
          close(fd);
      }
    }
  if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
    for (int i = 0; i < nfds; ++i)
      if (fds[i] >= 0) close(fds[i]), fds[i] = -1;
    errno = EMSGSIZE;
    return -1;
  }
  return n;
}

}  // namespace lash::sandbox
