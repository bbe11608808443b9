#include "net/relay.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6/ip6_tables.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "net/dns_message.h"
#include "net/flow_rules.h"
#include "net/http_stream.h"
#include "net/tls_client_hello.h"
#include "policy/host_match.h"

namespace lash::net {
namespace {

constexpr size_t kBufCap = 256 * 1024;   // per direction, before reading pauses
constexpr size_t kMaxNamesPerIp = 64;
constexpr size_t kSpliceAfter = 256 * 1024;  // short exchanges keep the cheaper copy
constexpr size_t kPipeSize = 256 * 1024;
constexpr size_t kMaxIps = 1 << 18;
// Per nameserver tried: glibc waits 5 s for an answer, so two servers fit in it.
constexpr int kDnsTryMs = 2000;

int64_t now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::string ip_text(const sockaddr_storage& ss, uint16_t* port) {
  char buf[INET6_ADDRSTRLEN] = "";
  if (ss.ss_family == AF_INET) {
    auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
    if (port) *port = ntohs(a->sin_port);
  } else if (ss.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
    if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) inet_ntop(AF_INET, &a->sin6_addr.s6_addr[12], buf, sizeof buf);
    else inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
    if (port) *port = ntohs(a->sin6_port);
  }
  return buf;
}

void reset_close(int fd) {
  if (fd < 0) return;
  linger l{1, 0};
  (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  close(fd);
}

struct Relay;

struct Handler {
  virtual ~Handler() = default;
  virtual void on_event(int side, uint32_t ev) = 0;
  virtual void on_tick(int64_t) {}
  bool dead = false;
};

// Bytes of one direction: [off, off+ok) may be written; beyond that, not yet checked.
struct Dir {
  std::string buf;
  size_t off = 0, ok = 0;
  bool eof = false, shut = false;
  size_t pending() const { return buf.size() - off; }
  // Once a direction is no longer inspected and has carried kSpliceAfter bytes, its
  // bytes go socket -> pipe -> socket with splice(2), never copied through the relay.
  size_t moved = 0;
  int pr = -1, pw = -1;  // the pipe, when splicing
  size_t in_pipe = 0, pipe_cap = 0;
  bool to_splice = false;  // reading pauses until the buffer is written, then splicing starts
  bool splicing() const { return pw >= 0; }
  bool can_read() const { return !eof && (splicing() ? in_pipe < pipe_cap : !to_splice && pending() < kBufCap); }
  bool has_out() const { return splicing() ? in_pipe > 0 : ok > 0; }
  ~Dir() {
    if (pr >= 0) close(pr);
    if (pw >= 0) close(pw);
  }
  // Starts splicing: only with nothing buffered. False (copying goes on) when no pipe
  // can be had, out of descriptors say.
  bool start_splice() {
    int p[2];
    if (pending() != 0 || pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) return false;
    pr = p[0];
    pw = p[1];
    // A bigger pipe moves more per call; the default (64 KiB) when the system says no.
    int got = fcntl(pw, F_SETPIPE_SZ, int(kPipeSize));
    pipe_cap = got > 0 ? size_t(got) : 65536;
    buf.clear();
    buf.shrink_to_fit();
    off = ok = 0;
    return true;
  }
};

struct Relay {
  RelayConfig cfg;
  int ep = -1;
  std::unordered_map<std::string, std::vector<std::string>> names;  // ip -> names
  std::unordered_set<Handler*> live;
  std::unordered_set<std::string> host_addrs;  // this host's own, from cfg
  std::vector<Handler*> dead;
  int reserve = -1;  // a spare fd, given up to shed a connection when out of fds

  // Out of descriptors: a pending connection would keep its listener readable and the
  // loop spinning, so one is accepted on the spare fd and reset at once.
  void shed(int listener) {
    if (reserve >= 0) close(reserve);
    int c = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (c >= 0) reset_close(c);
    reserve = fcntl(listener, F_DUPFD_CLOEXEC, 0);
  }

  // A flow has two fds: the low bit of the event's data says which side fired.
  void add(int fd, uint32_t ev, Handler* h, int side = 0) {
    epoll_event e{};
    e.events = ev;
    e.data.u64 = reinterpret_cast<uintptr_t>(h) | uintptr_t(side);
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e) != 0 && errno == EEXIST) epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
  }
  void mod(int fd, uint32_t ev, Handler* h, int side = 0) {
    epoll_event e{};
    e.events = ev;
    e.data.u64 = reinterpret_cast<uintptr_t>(h) | uintptr_t(side);
    epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
  }
  void kill(Handler* h) {
    if (!h->dead) {
      h->dead = true;
      dead.push_back(h);
    }
  }
  void learn(const std::string& name, const std::vector<std::string>& addrs) {
    for (const std::string& ip : addrs) {
      if (names.size() >= kMaxIps && !names.count(ip)) continue;  // full: later flows to it are refused
      auto& v = names[ip];
      bool have = false;
      for (auto& n : v) have = have || n == name;
      if (!have && v.size() < kMaxNamesPerIp) v.push_back(name);
    }
  }
  // The name lash's DNS gave IP for: CLAIMED when it is one of them, else the first;
  // the IP literal itself when none (then only an IP rule can allow the flow), and
  // always for an internal address or one of this host's own (a name must not lead
  // into the host's services).
  std::string bound(const std::string& ip, const std::string& claimed) const {
    if (is_internal_address(ip) || host_addrs.count(ip)) return ip;
    auto it = names.find(ip);
    if (it == names.end() || it->second.empty()) return ip;
    std::string c = policy::normalize_host(claimed);
    for (const auto& n : it->second)
      if (n == c) return n;
    return it->second.front();
  }
};

Relay* g;

// ---------------------------------------------------------------- TCP flows

struct Flow : Handler {
  int cfd = -1, sfd = -1;
  sockaddr_storage dst{};
  socklen_t dst_len = 0;
  std::string ip;
  uint16_t port = 0;
  enum class Mode { sniff, tls_checked, http, opaque } mode = Mode::sniff;
  bool connecting = false, connected = false;
  int64_t deadline = 0;
  Dir up, down;  // client -> server, server -> client
  HttpRequestStream http;
  uint32_t cev = 0, sev = 0;

  ~Flow() override {
    if (cfd >= 0) close(cfd);
    if (sfd >= 0) close(sfd);
  }

  void refuse() {
    reset_close(cfd);
    reset_close(sfd);
    cfd = sfd = -1;
    g->kill(this);
  }

  bool decide(const std::string& claimed) {
    return g->cfg.allowed(tcp_flow(g->bound(ip, claimed), ip, port, claimed));
  }

  void start_connect() {
    sfd = socket(dst.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (sfd < 0) return refuse();
    int one = 1;
    (void)setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(sfd, reinterpret_cast<sockaddr*>(&dst), dst_len) != 0 && errno != EINPROGRESS) return refuse();
    connecting = true;
    g->add(sfd, EPOLLOUT, this, 1);
    sev = EPOLLOUT;
  }

  // A flow whose name cannot be checked (no request line, no SNI): only an IP/CIDR
  // rule allows it. The address alone is passed as the host, so a name lash's DNS
  // resolved to it does not count.
  bool decide_by_address() {
    return g->cfg.allowed(unchecked_flow(ip, port));
  }

  void relay_unchecked() {
    if (!decide_by_address()) return refuse();
    mode = Mode::opaque;
    up.ok = up.pending();
    start_connect();
  }

  void relay_unchecked_tls() {
    if (!decide_by_address()) return refuse();
    mode = Mode::tls_checked;
    up.ok = up.pending();
    start_connect();
  }

  static bool is_ip_literal(const std::string& s) {
    in6_addr a6{};
    in_addr a4{};
    std::string h = s;
    if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
    return inet_pton(AF_INET, h.c_str(), &a4) == 1 || inet_pton(AF_INET6, h.c_str(), &a6) == 1;
  }

  // Classifies what the client sent so far: port 443 must open with a TLS ClientHello,
  // port 80 with an HTTP/1 request line; anything else goes only by an IP rule.
  void sniff() {
    std::string_view b(up.buf);
    if (port == 443) {
      auto hello = scan_client_hello(b);
      if (hello.kind == ClientHelloScan::need_more) return;
      if (hello.kind == ClientHelloScan::malformed) return refuse();
      if (hello.kind == ClientHelloScan::done) {
        if (hello.has_sni && !hello.sni_ok) return refuse();
        // No SNI, or an IP literal as SNI: no name to check, so only an IP rule allows
        // it (a name lash's DNS gave this address must not stand in for the SNI).
        if (!hello.has_sni || is_ip_literal(hello.sni)) return relay_unchecked_tls();
        // Otherwise the SNI must be one of the names this address was resolved for.
        if (!decide(hello.sni)) return refuse();
        mode = Mode::tls_checked;
        up.ok = up.pending();
        return start_connect();
      }
      return relay_unchecked();  // not a handshake record first: SSH, app data, CCS...
    }
    Looks h = looks_like_http(b);
    if (h == Looks::maybe) return;
    if (h == Looks::no) return relay_unchecked();
    mode = Mode::http;
    check_http();
    if (!dead) start_connect();
  }

  void check_http() {
    while (!dead) {
      std::string_view rest = std::string_view(up.buf).substr(up.off + up.ok);
      if (rest.empty()) return;
      HttpStep st = http.next(rest);
      if (st.kind == HttpStep::need_more) return;
      if (st.kind == HttpStep::malformed) return refuse();
      if (st.kind == HttpStep::head) {
        if (!decide(st.host)) return refuse();
        http.accept_head();
      }
      up.ok += st.length;
    }
  }

  void on_tick(int64_t now) override {
    if (mode == Mode::sniff && !dead && now > deadline) refuse();
  }

  // Reads what FD has into D (false: the flow ended here).
  bool fill(int fd, Dir& d, int other) {
    char tmp[65536];
    while (d.pending() < kBufCap) {
      ssize_t n = read(fd, tmp, sizeof tmp);
      if (n > 0) {
        if (d.off > 0 && (d.off == d.buf.size() || d.off >= kBufCap)) {
          d.buf.erase(0, d.off);  // written bytes go; what is left moves to the front
          d.off = 0;
        }
        d.buf.append(tmp, size_t(n));
        continue;
      }
      if (n == 0) {
        d.eof = true;
        return true;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return true;
      // A reset (or other error) on one side is passed on as a reset to the other.
      reset_close(other);
      if (other == cfd) cfd = -1;
      else sfd = -1;
      refuse();
      return false;
    }
    return true;
  }

  bool drain(int fd, Dir& d) {
    while (d.ok > 0) {
      ssize_t n = write(fd, d.buf.data() + d.off, d.ok);
      if (n > 0) {
        d.off += size_t(n);
        d.ok -= size_t(n);
        d.moved += size_t(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) break;
      refuse();
      return false;
    }
    if (d.off == d.buf.size()) {
      d.buf.clear();
      d.off = 0;
    }
    // Half-close passed on once everything before the EOF was written.
    if (d.eof && !d.shut && d.ok == 0) {
      d.buf.clear();
      d.off = 0;
      d.shut = true;
      shutdown(fd, SHUT_WR);
    }
    return true;
  }

  // Moves bytes of D from SRC to DST through its pipe as far as the sockets let it;
  // false when the flow ended here (a reset passed on, or DST gone).
  bool pump(int src, int dst, Dir& d) {
    // A bounded share per event, so one fast flow cannot starve the others (the
    // level-triggered loop comes back to it).
    for (size_t round = 0; round < 8; ++round) {
      while (d.in_pipe > 0) {
        ssize_t n = splice(d.pr, nullptr, dst, nullptr, d.in_pipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
        if (n > 0) {
          d.in_pipe -= size_t(n);
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return true;  // DST full: EPOLLOUT resumes it
        refuse();
        return false;
      }
      if (d.eof) break;
      ssize_t n = splice(src, nullptr, d.pw, nullptr, d.pipe_cap, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (n > 0) {
        d.in_pipe += size_t(n);
        continue;
      }
      if (n == 0) {
        d.eof = true;
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return true;
      // A reset (or other error) on SRC is passed on as a reset to DST.
      reset_close(dst);
      if (dst == cfd) cfd = -1;
      else sfd = -1;
      refuse();
      return false;
    }
    if (d.eof && !d.shut && d.in_pipe == 0) {
      d.shut = true;
      shutdown(dst, SHUT_WR);
    }
    return true;
  }

  // A direction nobody inspects any more that has carried enough goes over to splice.
  void maybe_splice(Dir& d, bool inspected) {
    if (inspected || d.splicing() || d.eof || d.moved < kSpliceAfter) return;
    d.to_splice = true;
    if (d.pending() == 0 && !d.start_splice()) d.to_splice = false;  // no pipe: copying goes on
  }

  void rearm() {
    if (dead) return;
    if (up.shut && down.shut) {
      g->kill(this);
      return;
    }
    uint32_t want_c = 0, want_s = 0;
    if (up.can_read()) want_c |= EPOLLIN;
    if (connected) {
      if (down.can_read()) want_s |= EPOLLIN;
      if (up.has_out()) want_s |= EPOLLOUT;
      if (down.has_out()) want_c |= EPOLLOUT;
    } else if (connecting) {
      want_s = EPOLLOUT;
    }
    if (want_c != cev) {
      g->mod(cfd, want_c, this);
      cev = want_c;
    }
    if (sfd >= 0 && want_s != sev) {
      g->mod(sfd, want_s, this, 1);
      sev = want_s;
    }
  }

  void on_event(int side, uint32_t ev) override {
    int fd = side ? sfd : cfd;
    if (fd < 0) return;
    if (fd == sfd && connecting) {
      int err = 0;
      socklen_t len = sizeof err;
      if (getsockopt(sfd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) return refuse();
      connecting = false;
      connected = true;
    }
    if (fd == cfd && !up.splicing() && !up.to_splice && (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
      if (!fill(cfd, up, sfd)) return;
      if (mode == Mode::sniff) {
        sniff();
        if (dead) return;
        if (mode == Mode::sniff && up.eof) return refuse();
      } else if (mode == Mode::http) {
        check_http();
        if (dead) return;
      } else {
        up.ok = up.pending();
      }
    }
    if (fd == sfd && connected && !down.splicing() && !down.to_splice && (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
      if (!fill(sfd, down, cfd)) return;
      down.ok = down.pending();
    }
    if (connected) {
      // An HTTP stream that ended inside a head: the unchecked bytes never leave.
      if (up.eof && mode == Mode::http && up.ok < up.pending()) up.buf.resize(up.off + up.ok);
      if (up.splicing() ? !pump(cfd, sfd, up) : !drain(sfd, up)) return;
      if (down.splicing() ? !pump(sfd, cfd, down) : !drain(cfd, down)) return;
      maybe_splice(up, mode == Mode::sniff || mode == Mode::http);
      maybe_splice(down, false);
    }
    rearm();
  }
};

bool original_destination(int fd, sockaddr_storage& dst, socklen_t& len) {
  len = sizeof dst;
  if (!g->cfg.nat) return getsockname(fd, reinterpret_cast<sockaddr*>(&dst), &len) == 0;
  sockaddr_storage local{};
  socklen_t ll = sizeof local;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &ll) != 0) return false;
  if (local.ss_family == AF_INET6)
    return getsockopt(fd, SOL_IPV6, IP6T_SO_ORIGINAL_DST, &dst, &len) == 0;
  return getsockopt(fd, SOL_IP, SO_ORIGINAL_DST, &dst, &len) == 0;
}

// Accepts every pending connection on listener FD and hands each to ON_CONN; out of
// descriptors, the listener sheds load (g->shed) instead of spinning.
template <class OnConn>
void accept_pending(int fd, OnConn on_conn) {
  for (;;) {
    int c = accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c < 0) {
      if (errno == EMFILE || errno == ENFILE) g->shed(fd);
      return;
    }
    on_conn(c);
  }
}

struct TcpListener : Handler {
  int fd;
  explicit TcpListener(int f) : fd(f) {}
  void on_event(int, uint32_t) override { accept_pending(fd, [](int c) { start_flow(c); }); }

  static void start_flow(int c) {
    auto* f = new Flow;
    g->live.insert(f);
    f->cfd = c;
    int one = 1;
    (void)setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!original_destination(c, f->dst, f->dst_len)) {
      f->refuse();
      return;
    }
    f->ip = ip_text(f->dst, &f->port);
    f->deadline = now_ms() + g->cfg.sni_timeout_ms;
    g->add(c, EPOLLIN, f);
    f->cev = EPOLLIN;
    // Ports 80 and 443 wait for the ClientHello or the request head; on other ports
    // the server may speak first, so they are decided by port and address alone.
    if (f->port != 80 && f->port != 443) {
      if (!f->decide("")) {
        f->refuse();
        return;
      }
      f->mode = Flow::Mode::opaque;
      f->start_connect();
    }
  }
};

// ---------------------------------------------------------------- DNS

struct DnsTcpConn;

// One query forwarded to the host's resolvers: to each nameserver of resolv.conf in
// turn while one fails (no answer in time, an ICMP refusal, SERVFAIL or REFUSED), over
// UDP for a client that asked over UDP (a truncated answer goes back as it is, and the
// client asks again over TCP) and over TCP for a client that asked over TCP.
struct Upstream : Handler {
  int fd = -1;
  std::string query;   // the client's, as it came
  std::string sent;    // the one lash built and sends upstream
  DnsQuery q;
  int64_t deadline = 0;
  size_t server = 0;   // the nameserver now asked (index in cfg.resolvers)
  std::string last_reply;  // the last failing answer, passed on when every server failed
  // TCP upstream: the framed query still to write, and what came back so far.
  bool over_tcp = false, connecting = false;
  std::string out, in;
  // Where the answer goes: a datagram to CLIENT through LISTENER, or a TCP connection.
  int listener = -1;
  sockaddr_storage client{};
  socklen_t client_len = 0;
  in6_pktinfo pkt6{};
  in_pktinfo pkt4{};
  bool have_pkt = false;
  DnsTcpConn* tcp = nullptr;  // null again when that connection ends first
  bool orphan = false;         // its client connection is gone: the answer goes nowhere
  ~Upstream() override;
  void answer(const std::string& reply);

  // Asks nameserver SERVER, or the next ones when asking cannot even start; false when
  // none is left.
  bool ask() {
    for (; server < g->cfg.resolvers.size(); ++server) {
      if (fd >= 0) close(fd);
      fd = -1;
      const sockaddr_storage& r = g->cfg.resolvers[server];
      socklen_t rl = r.ss_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
      fd = socket(r.ss_family, (over_tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) continue;
      deadline = now_ms() + kDnsTryMs;
      in.clear();
      if (over_tcp) {
        out.clear();
        out += char(sent.size() >> 8);
        out += char(sent.size() & 0xff);
        out += sent;
        if (connect(fd, reinterpret_cast<const sockaddr*>(&r), rl) != 0 && errno != EINPROGRESS) continue;
        connecting = true;
        g->add(fd, EPOLLOUT, this);
        return true;
      }
      if (connect(fd, reinterpret_cast<const sockaddr*>(&r), rl) != 0 ||
          send(fd, sent.data(), sent.size(), 0) != ssize_t(sent.size()))
        continue;
      g->add(fd, EPOLLIN, this);
      return true;
    }
    return false;
  }
  // This nameserver failed: the next one, or the last failure (SERVFAIL) to the client.
  void next() {
    ++server;
    if (ask()) return;
    answer(last_reply.empty() ? dns_servfail(query, q) : last_reply);
    g->kill(this);
  }
  // REPLY came from the nameserver: checked, learned from, passed on.
  void got(const std::string& reply) {
    auto a = parse_dns_answer(reply);
    auto back = dns_reply_for_client(reply, sent, query, q);
    // An answer to another question (or none) is not passed on.
    if (!a || !back || a->question != q.name || a->qtype != q.qtype) return next();
    if (a->rcode == 2 || a->rcode == 5) {  // SERVFAIL, REFUSED: another server may answer
      last_reply = std::move(*back);
      return next();
    }
    g->learn(q.name, a->addrs);
    answer(*back);
    g->kill(this);
  }
  void on_event(int, uint32_t ev) override {
    if (!over_tcp) {
      char buf[65536];
      ssize_t n = recv(fd, buf, sizeof buf, 0);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      if (n <= 0) return next();  // ECONNREFUSED (nothing listens there) and the like
      return got(std::string(buf, size_t(n)));
    }
    if (connecting) {
      int err = 0;
      socklen_t len = sizeof err;
      if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) return next();
      connecting = false;
    }
    while (!out.empty()) {
      ssize_t n = write(fd, out.data(), out.size());
      if (n > 0) out.erase(0, size_t(n));
      else if (n < 0 && errno == EINTR) continue;
      else if (n < 0 && errno == EAGAIN) break;
      else return next();
    }
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
      char buf[65536];
      for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
          in.append(buf, size_t(n));
          if (in.size() > 2 + 65535) return next();
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) break;
        if (in.size() < 2) return next();  // closed or failed before an answer
        break;
      }
      if (in.size() >= 2) {
        size_t len = (size_t(uint8_t(in[0])) << 8) | uint8_t(in[1]);
        if (in.size() >= 2 + len) return got(in.substr(2, len));
      }
    }
    g->mod(fd, out.empty() ? EPOLLIN : EPOLLIN | EPOLLOUT, this);
  }
  void on_tick(int64_t now) override {
    if (!dead && now > deadline) next();
  }
};

struct DnsTcpConn : Handler {
  int fd = -1;
  std::string in, out;
  int waiting = 0;
  bool eof = false;
  // Queries still upstream: told when this connection ends before their answers.
  std::unordered_set<Upstream*> pending;
  ~DnsTcpConn() override {
    for (Upstream* u : pending) {
      u->tcp = nullptr;
      u->orphan = true;
    }
    if (fd >= 0) close(fd);
  }
  void flush() {
    while (!out.empty()) {
      ssize_t n = write(fd, out.data(), out.size());
      if (n > 0) out.erase(0, size_t(n));
      else if (n < 0 && errno == EINTR) continue;
      else break;
    }
    if ((eof && waiting == 0 && out.empty()) || out.size() > (1u << 20)) g->kill(this);
    else g->mod(fd, out.empty() ? EPOLLIN : EPOLLIN | EPOLLOUT, this);
  }
  void reply(const std::string& r) {
    out += char(r.size() >> 8);
    out += char(r.size() & 0xff);
    out += r;
    flush();
  }
  void on_event(int, uint32_t ev) override;
};

Upstream::~Upstream() {
  if (tcp) tcp->pending.erase(this);
  if (fd >= 0) close(fd);
}

void Upstream::answer(const std::string& reply) {
  if (orphan) return;
  if (tcp) {
    tcp->waiting--;
    tcp->pending.erase(this);
    DnsTcpConn* t = tcp;
    tcp = nullptr;
    if (!t->dead) t->reply(reply);
    return;
  }
  iovec iov{const_cast<char*>(reply.data()), reply.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(in6_pktinfo))] = {};
  msghdr m{};
  m.msg_name = &client;
  m.msg_namelen = client_len;
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  // The answer leaves from the address the query was sent to (local-route mode: any).
  if (have_pkt) {
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    if (client.ss_family == AF_INET) {
      c->cmsg_level = IPPROTO_IP;
      c->cmsg_type = IP_PKTINFO;
      c->cmsg_len = CMSG_LEN(sizeof pkt4);
      in_pktinfo pi = pkt4;
      pi.ipi_ifindex = 0;
      memcpy(CMSG_DATA(c), &pi, sizeof pi);
      m.msg_controllen = CMSG_SPACE(sizeof pkt4);
    } else {
      c->cmsg_level = IPPROTO_IPV6;
      c->cmsg_type = IPV6_PKTINFO;
      c->cmsg_len = CMSG_LEN(sizeof pkt6);
      in6_pktinfo pi = pkt6;
      pi.ipi6_ifindex = 0;
      memcpy(CMSG_DATA(c), &pi, sizeof pi);
      m.msg_controllen = CMSG_SPACE(sizeof pkt6);
    }
  }
  (void)sendmsg(listener, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
}

// Decides QUERY; returns the immediate answer, or "" once forwarded (U is then owned
// by the loop).
std::string handle_query(std::unique_ptr<Upstream> u) {
  auto q = parse_dns_query(u->query);
  if (!q) return {};  // not a query lash answers: dropped
  u->q = *q;
  if (q->qtype == kDnsTypeHTTPS || q->qtype == kDnsTypeSVCB) return dns_refusal(u->query, *q, false);
  if (!q->name_ok || !g->cfg.dns_allowed(q->name)) return dns_refusal(u->query, *q, true);
  if (g->cfg.resolvers.empty()) return dns_servfail(u->query, *q);
  // A fresh query from the parsed question: the client's packet never leaves as it is.
  uint16_t id = 0;
  if (getrandom(&id, sizeof id, 0) != ssize_t(sizeof id)) return dns_servfail(u->query, *q);
  u->sent = dns_upstream_query(*q, id);
  u->over_tcp = u->tcp != nullptr;
  if (!u->ask()) return dns_servfail(u->query, *q);
  g->live.insert(u.release());
  return "";
}

void DnsTcpConn::on_event(int, uint32_t ev) {
  if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
    char buf[65536];
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) {
        in.append(buf, size_t(n));
        if (in.size() > 200000) return g->kill(this);
        continue;
      }
      if (n == 0) eof = true;
      else if (errno == EINTR) continue;
      else if (errno != EAGAIN) return g->kill(this);
      break;
    }
    while (in.size() >= 2) {
      size_t len = (size_t(uint8_t(in[0])) << 8) | uint8_t(in[1]);
      if (in.size() < 2 + len) break;
      auto u = std::make_unique<Upstream>();
      u->query = in.substr(2, len);
      u->tcp = this;
      in.erase(0, 2 + len);
      waiting++;
      Upstream* keep = u.get();
      std::string now = handle_query(std::move(u));
      if (!now.empty()) {
        waiting--;
        reply(now);
      } else if (!g->live.count(keep)) {
        waiting--;  // dropped: not a query
      } else {
        pending.insert(keep);
      }
      if (dead) return;
    }
  }
  flush();
}

struct DnsUdpListener : Handler {
  int fd;
  explicit DnsUdpListener(int f) : fd(f) {}
  void on_event(int, uint32_t) override {
    for (;;) {
      auto u = std::make_unique<Upstream>();
      char buf[kDnsMaxUdp];
      iovec iov{buf, sizeof buf};
      alignas(cmsghdr) char control[256];
      msghdr m{};
      m.msg_name = &u->client;
      m.msg_namelen = sizeof u->client;
      m.msg_iov = &iov;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof control;
      ssize_t n = recvmsg(fd, &m, MSG_DONTWAIT);
      if (n < 0) {
        if (errno == EINTR) continue;
        return;
      }
      u->client_len = m.msg_namelen;
      u->listener = fd;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
          memcpy(&u->pkt4, CMSG_DATA(c), sizeof u->pkt4);
          u->have_pkt = true;
        } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
          memcpy(&u->pkt6, CMSG_DATA(c), sizeof u->pkt6);
          u->have_pkt = true;
        }
      }
      u->query.assign(buf, size_t(n));
      Upstream copy_for_reply;  // the reply path needs only the addressing
      copy_for_reply.listener = fd;
      copy_for_reply.client = u->client;
      copy_for_reply.client_len = u->client_len;
      copy_for_reply.pkt4 = u->pkt4;
      copy_for_reply.pkt6 = u->pkt6;
      copy_for_reply.have_pkt = u->have_pkt;
      std::string now = handle_query(std::move(u));
      if (!now.empty()) copy_for_reply.answer(now);
    }
  }
};

struct DnsTcpListener : Handler {
  int fd;
  explicit DnsTcpListener(int f) : fd(f) {}
  void on_event(int, uint32_t) override {
    accept_pending(fd, [](int c) {
      auto* d = new DnsTcpConn;
      d->fd = c;
      g->live.insert(d);
      g->add(c, EPOLLIN, d);
    });
  }
};

}  // namespace

std::vector<sockaddr_storage> read_resolvers(const char* path) {
  std::vector<sockaddr_storage> out;
  FILE* f = fopen(path, "re");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char addr[256];
    if (sscanf(line, " nameserver %255s", addr) != 1) continue;
    sockaddr_storage ss{};
    auto* a4 = reinterpret_cast<sockaddr_in*>(&ss);
    auto* a6 = reinterpret_cast<sockaddr_in6*>(&ss);
    if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
      a4->sin_family = AF_INET;
      a4->sin_port = htons(53);
    } else if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
      a6->sin6_family = AF_INET6;
      a6->sin6_port = htons(53);
    } else {
      continue;
    }
    out.push_back(ss);
  }
  if (f) fclose(f);
  if (out.empty()) {
    sockaddr_storage ss{};
    auto* a4 = reinterpret_cast<sockaddr_in*>(&ss);
    a4->sin_family = AF_INET;
    a4->sin_port = htons(53);
    a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    out.push_back(ss);
  }
  return out;
}

bool is_internal_address(const std::string& ip) {
  static const policy::HostMatcher internal({"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
                                             "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16",
                                             "224.0.0.0/3", "::/128", "::1/128", "fc00::/7", "fe80::/10",
                                             "ff00::/8"});
  return internal.match_ip(ip);
}

std::vector<std::string> read_host_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6)) continue;
    sockaddr_storage ss{};
    memcpy(&ss, i->ifa_addr, i->ifa_addr->sa_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6));
    std::string ip = ip_text(ss, nullptr);
    if (!ip.empty()) out.push_back(ip);
  }
  freeifaddrs(list);
  return out;
}

void run_relay(RelayConfig cfg) {
  signal(SIGPIPE, SIG_IGN);
  Relay relay;
  relay.cfg = std::move(cfg);
  relay.host_addrs.insert(relay.cfg.host_addresses.begin(), relay.cfg.host_addresses.end());
  g = &relay;
  relay.ep = epoll_create1(EPOLL_CLOEXEC);
  if (relay.ep < 0) _exit(111);
  if (!relay.cfg.listeners.empty()) relay.reserve = fcntl(relay.cfg.listeners.front().fd, F_DUPFD_CLOEXEC, 0);
  std::vector<std::unique_ptr<Handler>> listeners;
  for (const RelayListen& l : relay.cfg.listeners) {
    Handler* h = nullptr;
    if (l.role == RelayListen::tcp) h = new TcpListener(l.fd);
    else if (l.role == RelayListen::dns_udp) h = new DnsUdpListener(l.fd);
    else h = new DnsTcpListener(l.fd);
    listeners.emplace_back(h);
    relay.add(l.fd, EPOLLIN, h);
  }
  epoll_event evs[256];
  int64_t last_tick = now_ms();
  for (;;) {
    int n = epoll_wait(relay.ep, evs, 256, 500);
    if (n < 0 && errno != EINTR) _exit(112);
    for (int i = 0; i < n; ++i) {
      auto* h = reinterpret_cast<Handler*>(uintptr_t(evs[i].data.u64 & ~uint64_t(1)));
      if (h->dead) continue;
      h->on_event(int(evs[i].data.u64 & 1), evs[i].events);
    }
    int64_t now = now_ms();
    if (now - last_tick >= 250) {
      last_tick = now;
      for (Handler* h : relay.live) h->on_tick(now);
    }
    for (Handler* h : relay.dead) {
      relay.live.erase(h);
      delete h;
    }
    relay.dead.clear();
  }
}

}  // namespace lash::net
