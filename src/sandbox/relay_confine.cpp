#include "sandbox/relay_confine.h"

#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/landlock.h"
#include "sandbox/landlock_abi.h"

// The sanitizers' runtime checks memory by writing it to a pipe (UBSan's vptr check)
// and reads /proc/self/exe to name stack frames: without these calls every virtual
// call in the relay is reported as an invalid vptr. Test builds only.
#if defined(__SANITIZE_ADDRESS__)
#define LASH_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define LASH_SANITIZER_BUILD 1
#endif
#endif

namespace lash::sandbox {

Result<void> confine_relay(const Capabilities& caps) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return sys_error("cannot confine the relay", "", errno);
  if (caps.landlock_abi >= 1) {
    auto rs = build_deny_all_landlock(caps);
    if (!rs) return rs.error();
    if (ll::restrict_self(rs->fd.get(), 0) != 0) return sys_error("cannot confine the relay (Landlock)", "", errno);
  }
  // Anything else fails with EPERM (not a kill: a libc path we did not foresee then
  // shows as an error in the relay, not as a dead network).
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (!ctx) return Error{"cannot confine the relay (seccomp)", "", 0, {}};
  static const int allowed[] = {
      SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(close),
      SCMP_SYS(recvfrom), SCMP_SYS(sendto), SCMP_SYS(recvmsg), SCMP_SYS(sendmsg), SCMP_SYS(connect),
      SCMP_SYS(accept4), SCMP_SYS(shutdown), SCMP_SYS(getsockopt), SCMP_SYS(setsockopt),
      SCMP_SYS(getsockname), SCMP_SYS(getpeername), SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait),
      SCMP_SYS(epoll_ctl), SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep), SCMP_SYS(brk), SCMP_SYS(mmap),
      SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(madvise), SCMP_SYS(mprotect), SCMP_SYS(futex),
      SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(restart_syscall), SCMP_SYS(exit),
      SCMP_SYS(exit_group), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(fcntl), SCMP_SYS(getrandom),
      SCMP_SYS(newfstatat), SCMP_SYS(fstat), SCMP_SYS(lseek), SCMP_SYS(gettimeofday), SCMP_SYS(time),
      SCMP_SYS(epoll_create1), SCMP_SYS(rt_sigaction), SCMP_SYS(sigaltstack), SCMP_SYS(sched_yield),
      SCMP_SYS(nanosleep), SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(tgkill),
      SCMP_SYS(pipe2), SCMP_SYS(splice),  // zero-copy forwarding of bulk flows
  };
  bool ok = true;
  for (int sc : allowed) ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, sc, 0) == 0;
#ifdef LASH_SANITIZER_BUILD
  for (int sc : {SCMP_SYS(pipe), SCMP_SYS(readlink), SCMP_SYS(readlinkat)})
    ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, sc, 0) == 0;
#endif
  // New sockets: IPv4 and IPv6 only (no netlink, no packet, no unix).
  ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_INET)) == 0;
  ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_INET6)) == 0;
  ok = ok && seccomp_load(ctx) == 0;
  seccomp_release(ctx);
  if (!ok) return Error{"cannot confine the relay (seccomp)", "", 0, {}};
  return {};
}

}  // namespace lash::sandbox
