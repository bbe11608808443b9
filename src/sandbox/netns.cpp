#include "sandbox/netns.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <nftables/libnftables.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "sandbox/fd_passing.h"
#include "sandbox/launch.h"

namespace lash::sandbox {
namespace {

// Stages of the helper, so that an error names what failed.
enum Stage : int { st_ok = 0, st_unshare, st_lo, st_route4, st_route6, st_nft, st_listen, st_send, st_ports };

const char* stage_text(int s) {
  switch (s) {
    case st_unshare: return "cannot make the session's network namespace";
    case st_lo: return "cannot bring up lo in the session's network namespace";
    case st_route4: return "cannot route IPv4 to the relay in the session's network namespace";
    case st_route6: return "cannot route IPv6 to the relay in the session's network namespace";
    case st_nft: return "cannot install the nftables interception";
    case st_listen: return "cannot open the relay's listening sockets";
    case st_send: return "cannot hand the session's network namespace to lash";
    case st_ports: return "too many allowed ports for the local-route interception";
  }
  return "the session's network namespace failed";
}

bool lo_up() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return false;
  struct ifreq ifr {};
  strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  bool ok = ioctl(s, SIOCGIFFLAGS, &ifr) == 0;
  ifr.ifr_flags = short(ifr.ifr_flags | IFF_UP);
  ok = ok && ioctl(s, SIOCSIFFLAGS, &ifr) == 0;
  close(s);
  return ok;
}

// One rtnetlink route to `lo` for every address of FAMILY: a plain default route
// (with SRC as its preferred source: without one the kernel picks no source address
// for a destination that is not local and connect() fails) or, LOCAL, a route that
// makes every address local.
bool add_route(int family, bool local) {
  int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (s < 0) return false;
  struct {
    nlmsghdr nh;
    rtmsg rt;
    char attrs[64];
  } req{};
  req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg));
  req.nh.nlmsg_type = RTM_NEWROUTE;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
  req.rt.rtm_family = uint8_t(family);
  req.rt.rtm_table = local ? RT_TABLE_LOCAL : RT_TABLE_MAIN;
  req.rt.rtm_protocol = RTPROT_BOOT;
  req.rt.rtm_scope = local ? RT_SCOPE_HOST : RT_SCOPE_LINK;
  req.rt.rtm_type = local ? RTN_LOCAL : RTN_UNICAST;
  auto add_attr = [&](unsigned short type, const void* data, size_t len) {
    auto* a = reinterpret_cast<rtattr*>(reinterpret_cast<char*>(&req) + NLMSG_ALIGN(req.nh.nlmsg_len));
    a->rta_type = type;
    a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
    memcpy(RTA_DATA(a), data, len);
    req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(a->rta_len);
  };
  int lo = int(if_nametoindex("lo"));
  add_attr(RTA_OIF, &lo, sizeof lo);
  if (!local && family == AF_INET) {
    in_addr src{htonl(INADDR_LOOPBACK)};
    add_attr(RTA_PREFSRC, &src, sizeof src);
  }
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  bool ok = sendto(s, &req, req.nh.nlmsg_len, 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) ==
            ssize_t(req.nh.nlmsg_len);
  char buf[512];
  ssize_t n = ok ? recv(s, buf, sizeof buf, 0) : -1;
  ok = false;
  if (n >= ssize_t(NLMSG_LENGTH(sizeof(nlmsgerr)))) {
    auto* nh = reinterpret_cast<nlmsghdr*>(buf);
    if (nh->nlmsg_type == NLMSG_ERROR) {
      int err = reinterpret_cast<nlmsgerr*>(NLMSG_DATA(nh))->error;
      ok = err == 0;
      if (!ok) errno = -err;
    }
  }
  int e = errno;
  close(s);
  errno = e;
  return ok;
}

// The ruleset: DNS to its listeners, every other TCP connection to the relay; UDP 443
// rejected (QUIC clients fall back to TCP at once), other UDP dropped. Each accept is
// a rule of its own: Debian's nftables 1.0.6 merges `a != x b != y` wrongly.
//
// libnftables is loaded here, in the namespace helper, and nowhere else: linked into
// lash it brought six libraries (nftables, nftnl, mnl, xtables, jansson, gmp) into
// every process, sandboxed network or not, and their relocations cost every session
// start-up and about 0.6 MB of resident memory in each interactive shell. Missing or
// unloadable, it is the same as nftables failing: the local-route fallback.
struct NftApi {
  decltype(&nft_ctx_new) ctx_new = nullptr;
  decltype(&nft_ctx_buffer_output) buffer_output = nullptr;
  decltype(&nft_ctx_buffer_error) buffer_error = nullptr;
  decltype(&nft_run_cmd_from_buffer) run_cmd = nullptr;
  decltype(&nft_ctx_free) ctx_free = nullptr;
};

bool load_nftables(NftApi& api) {
  void* lib = dlopen("libnftables.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return false;
  api.ctx_new = reinterpret_cast<decltype(api.ctx_new)>(dlsym(lib, "nft_ctx_new"));
  api.buffer_output = reinterpret_cast<decltype(api.buffer_output)>(dlsym(lib, "nft_ctx_buffer_output"));
  api.buffer_error = reinterpret_cast<decltype(api.buffer_error)>(dlsym(lib, "nft_ctx_buffer_error"));
  api.run_cmd = reinterpret_cast<decltype(api.run_cmd)>(dlsym(lib, "nft_run_cmd_from_buffer"));
  api.ctx_free = reinterpret_cast<decltype(api.ctx_free)>(dlsym(lib, "nft_ctx_free"));
  return api.ctx_new && api.buffer_output && api.buffer_error && api.run_cmd && api.ctx_free;
}

bool install_nftables(const std::vector<PortRange>& own_ports) {
  NftApi nft;
  if (!load_nftables(nft)) return false;
  nft_ctx* ctx = nft.ctx_new(NFT_CTX_DEFAULT);
  if (!ctx) return false;
  nft.buffer_output(ctx);
  nft.buffer_error(ctx);
  std::string dns = std::to_string(kRelayDnsPort), tcp = std::to_string(kRelayTcpPort);
  // allow_bind: a loopback connection to one of these ports is to the session's own
  // listener, so it stays in the namespace instead of going to the relay.
  std::string own;
  for (const PortRange& r : own_ports)
    own += (own.empty() ? "" : ", ") + std::to_string(r.first) +
           (r.first == r.last ? std::string() : "-" + std::to_string(r.last));
  std::string keep_own = own.empty() ? std::string()
                                     : "  ip daddr 127.0.0.0/8 tcp dport { " + own + " } accept\n"
                                       "  ip6 daddr ::1 tcp dport { " + own + " } accept\n";
  std::string rules =
      "table inet lash {\n"
      " chain intercept {\n"
      "  type nat hook output priority -100; policy accept;\n"
      "  meta l4proto udp udp dport 53 redirect to :" + dns + "\n"
      "  meta l4proto tcp tcp dport 53 redirect to :" + dns + "\n" + keep_own +
      "  meta l4proto tcp redirect to :" + tcp + "\n"
      " }\n"
      " chain leave {\n"
      "  type filter hook output priority 0; policy drop;\n"
      "  meta l4proto tcp accept\n"
      "  ip daddr 127.0.0.1 udp dport " + dns + " accept\n"
      "  ip6 daddr ::1 udp dport " + dns + " accept\n"
      "  udp sport " + dns + " accept\n"
      "  udp dport 443 reject\n"
      "  meta l4proto icmp accept\n"
      "  meta l4proto ipv6-icmp accept\n"
      " }\n"
      "}\n";
  int r = nft.run_cmd(ctx, rules.c_str());
  nft.ctx_free(ctx);
  return r == 0;
}

int listen_on(int family, int type, uint16_t port) {
  int s = socket(family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (s < 0) return -1;
  int one = 1;
  (void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_storage ss{};
  socklen_t len;
  if (family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(port);
    a->sin_addr.s_addr = htonl(INADDR_ANY);
    len = sizeof *a;
  } else {
    (void)setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(port);
    a->sin6_addr = in6addr_any;
    len = sizeof *a;
  }
  if (type == SOCK_DGRAM) {
    // The original destination of a datagram (local-route mode: every address).
    (void)setsockopt(s, family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6,
                     family == AF_INET ? IP_PKTINFO : IPV6_RECVPKTINFO, &one, sizeof one);
  }
  if (bind(s, reinterpret_cast<sockaddr*>(&ss), len) != 0 || (type == SOCK_STREAM && listen(s, 4096) != 0)) {
    int e = errno;
    close(s);
    errno = e;
    return -1;
  }
  return s;
}

struct Made {
  std::vector<int> fds;
  std::vector<uint8_t> roles;
};

bool open_listeners(Made& m, bool local, const std::vector<PortRange>& ports) {
  auto add = [&](int family, int type, uint16_t port, RelayListener::Role role) {
    int fd = listen_on(family, type, port);
    if (fd < 0) return false;
    m.fds.push_back(fd);
    m.roles.push_back(role);
    return true;
  };
  for (int family : {AF_INET, AF_INET6}) {
    if (!add(family, SOCK_DGRAM, kRelayDnsPort, RelayListener::dns_udp)) return false;
    if (!add(family, SOCK_STREAM, kRelayDnsPort, RelayListener::dns_tcp)) return false;
    if (!local) {
      if (!add(family, SOCK_STREAM, kRelayTcpPort, RelayListener::tcp)) return false;
      continue;
    }
    // Once per port: lists may overlap (allow_ports and allow_loopback, or ranges),
    // and a second listener on a port would fail the whole namespace.
    std::set<unsigned> done;
    for (const PortRange& r : ports)
      for (unsigned p = r.first; p <= r.last && p != 0; ++p)
        if (p != kRelayDnsPort && done.insert(p).second && !add(family, SOCK_STREAM, uint16_t(p), RelayListener::tcp))
          return false;
  }
  return true;
}

// The helper: a fork of lash. Returns the stage that failed (errno in ERR).
int helper_main(int sock, bool local, const std::vector<PortRange>& ports, const std::vector<PortRange>& own_ports,
                bool& nft_failed) {
  if (unshare(CLONE_NEWNET) != 0) return st_unshare;
  if (!lo_up()) return st_lo;
  if (!local && !install_nftables(own_ports)) {
    nft_failed = true;
    local = true;
  }
  if (!add_route(AF_INET, local)) return st_route4;
  if (!add_route(AF_INET6, local)) return st_route6;
  std::set<unsigned> distinct;
  for (const PortRange& r : ports)
    for (unsigned p = r.first; p <= r.last && distinct.size() <= kMaxLocalPorts; ++p) distinct.insert(p);
  size_t count = distinct.size();
  if (local && count > kMaxLocalPorts) {
    errno = E2BIG;
    return st_ports;
  }
  Made m;
  int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  if (self < 0) return st_send;
  m.fds.push_back(self);
  m.roles.push_back(0);
  if (!open_listeners(m, local, ports)) return st_listen;
  // One message per fd: [stage, mode, role] beside it; the count first.
  int header[3] = {st_ok, local ? 1 : 0, int(m.fds.size())};
  if (write(sock, header, sizeof header) != ssize_t(sizeof header)) return st_send;
  for (size_t i = 0; i < m.fds.size(); ++i)
    if (send_with_fd(sock, &m.roles[i], 1, m.fds[i]) != 1) return st_send;
  return st_ok;
}

ssize_t read_full(int fd, void* buf, size_t len) {
  size_t got = 0;
  while (got < len) {
    ssize_t n = read(fd, static_cast<char*>(buf) + got, len - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return got ? ssize_t(got) : n;
    got += size_t(n);
  }
  return ssize_t(got);
}

}  // namespace

const char* interception_name(NetInterception m) {
  return m == NetInterception::nftables ? "nftables redirect" : "local route";
}

Result<SessionNetwork> make_session_network(const std::vector<PortRange>& ports,
                                            const std::vector<PortRange>& own_ports, bool force_local) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return sys_error("cannot make the session's network namespace", "", errno);
  unique_fd mine(sv[0]), theirs(sv[1]);
  pid_t pid = fork_helper();
  if (pid < 0) return sys_error("cannot make the session's network namespace", "", errno);
  if (pid == 0) {
    mine.reset();
    bool nft_failed = false;
    int stage = helper_main(theirs.get(), force_local, ports, own_ports, nft_failed);
    if (stage != st_ok) {
      int msg[3] = {stage, errno, 0};
      (void)!write(theirs.get(), msg, sizeof msg);
    }
    _exit(stage == st_ok ? (nft_failed ? 3 : 0) : 1);
  }
  theirs.reset();
  SessionNetwork out;
  int header[3] = {-1, 0, 0};
  bool ok = read_full(mine.get(), header, sizeof header) == ssize_t(sizeof header) && header[0] == st_ok &&
            header[2] > 0 && header[2] < 4096;
  int stage = header[0] < 0 ? st_send : header[0], err = header[0] == st_ok ? 0 : header[1];
  for (int i = 0; ok && i < header[2]; ++i) {
    uint8_t role = 0;
    int fd = -1;
    if (recv_with_fd(mine.get(), &role, 1, &fd, MSG_CMSG_CLOEXEC) != 1 || fd < 0) {
      ok = false;
      err = EPROTO;
      break;
    }
    if (i == 0) {
      out.netns.reset(fd);
      keep_private(out.netns);
    } else {
      out.listeners.push_back({RelayListener::Role(role), unique_fd(fd)});
    }
  }
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (!ok) return sys_error(stage_text(stage), "", err);
  out.mode = header[1] ? NetInterception::local_route : NetInterception::nftables;
  if (out.mode == NetInterception::local_route && !force_local)
    out.note = "nftables is unavailable in the session's network namespace: interception falls back to a local "
               "route with one listener per allowed port; connections to other ports are refused by the kernel "
               "and not seen (nor audited) by the relay";
  return out;
}

}  // namespace lash::sandbox
