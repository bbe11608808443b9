// The fd broker: files and directories the main shell opens for the user (builtin
// redirections such as `echo x > f`, `read v < f`, `.`/`source`, globbing's directory
// reads) are opened by a small helper process that runs under the session sandbox and
// hands the fd back over a unix socket (SCM_RIGHTS). The kernel checks the open
// itself, at the moment of use: no check-then-open gap. lash's own state (history,
// audit log, config) is opened directly and is never inside a child's grant.
//
// The request set is closed: one operation, `open`, with a checked flag mask.
#pragma once
#include <sys/types.h>

#include <functional>
#include <mutex>
#include <string>

#include "base/result.h"
#include "base/unique_fd.h"
#include "sandbox/prepared.h"

namespace lash::sandbox {

class Broker {
 public:
  Broker() = default;
  Broker(Broker&& o) noexcept : sock_(std::move(o.sock_)), pid_(o.pid_) { o.pid_ = -1; }
  Broker& operator=(Broker&& o) noexcept;
  ~Broker();

  // Fork the helper and put it under PREPARED (cgroup, namespaces, Landlock,
  // seccomp). Call before lash starts threads.
  static Result<Broker> start(const Prepared& prepared);

  bool running() const { return sock_.valid(); }
  pid_t pid() const { return pid_; }  // -1: none (or reaped)

  // open(2) in the helper. FLAGS: O_RDONLY/O_WRONLY/O_RDWR with any of O_CREAT,
  // O_TRUNC, O_APPEND, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NOCTTY, O_NONBLOCK; the
  // result is always O_CLOEXEC. A relative PATH is made absolute against lash's
  // current directory. The Error carries the errno of the refused open (EACCES for
  // a path outside the grants). An open that blocks (a FIFO) is given up when a
  // signal interrupts the wait and GIVE_UP says so: the helper, still blocked, is
  // stopped (SessionSandbox starts a new one for the next open) and the error is
  // EINTR.
  Result<unique_fd> open(const std::string& path, int flags, mode_t mode = 0666,
                         const std::function<bool()>& give_up = {});

  // Stop the helper (closing the socket ends it) and reap it.
  void stop();

  // PID was reaped by someone else (the shell waits for any child): if it was the
  // helper, its pid is forgotten, so stop() cannot signal a process given that pid
  // since. The socket stays, and fails as a dead helper's does.
  void reaped(pid_t pid) {
    if (pid == pid_) pid_ = -1;
  }

 private:
  unique_fd sock_;
  pid_t pid_ = -1;
  mutable std::mutex mu_;  // one request at a time on the socket
};

// The flags the broker accepts (exposed for tests).
bool broker_flags_ok(int flags);

}  // namespace lash::sandbox
