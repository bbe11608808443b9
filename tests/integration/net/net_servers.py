"""Servers for the network relay tests (relay_test.py), run in the test's own network
namespace: a DNS server, an HTTPS server that reports the SNI it received, an HTTP
server that reports the Host of every request, and a TCP echo server with half-close.
Each logs what reached it, so a test can prove what crossed the relay.
"""

import socket
import ssl
import struct
import threading

# name -> (ipv4, ipv6)
ZONE = {
    "allowed.test": ("198.51.100.10", "2001:db8::10"),
    "www.wild.test": ("198.51.100.11", None),
    "wild.test": ("198.51.100.12", None),
    "evilwild.test": ("198.51.100.13", None),
    "other.test": ("198.51.100.20", "2001:db8::20"),
    "second.test": ("198.51.100.10", None),   # same address as allowed.test
    "inside.test": ("10.200.0.1", None),      # a private address behind a name
    "self.wild.test": ("192.0.2.1", None),    # this host's own interface address
}
ADDRS4 = sorted({v[0] for v in ZONE.values() if v[0] and v[0].startswith("198.")})
ADDRS6 = sorted({v[1] for v in ZONE.values() if v[1]})


class Log:
    def __init__(self):
        self.lock = threading.Lock()
        self.lines = []

    def add(self, line):
        with self.lock:
            self.lines.append(line)

    def has(self, needle):
        with self.lock:
            return any(needle in l for l in self.lines)

    def text(self):
        with self.lock:
            return "\n".join(self.lines)


LOG = Log()


def _qname(msg):
    pos, labels = 12, []
    while msg[pos]:
        n = msg[pos]
        labels.append(msg[pos + 1:pos + 1 + n].decode("ascii", "replace"))
        pos += 1 + n
    qtype = struct.unpack("!H", msg[pos + 1:pos + 3])[0]
    return ".".join(labels).lower(), qtype, pos + 5


BIG = "big.wild.test"  # 40 addresses: too many for a plain UDP answer (truncated there)


def dns_answer(msg, tcp=False):
    name, qtype, end = _qname(msg)
    LOG.add("dns %s %d" % (name, qtype))
    LOG.add("dns-raw %r" % msg)  # every byte that reached the resolver
    if name == BIG and qtype == 1:
        if not tcp:  # TC set, no records: the client must ask again over TCP
            LOG.add("dns-truncated %s" % name)
            return msg[:2] + struct.pack("!HHHHH", 0x8380, 1, 0, 0, 0) + msg[12:end]
        answers = b"".join(b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" +
                           socket.inet_aton("198.51.100.%d" % (100 + i)) for i in range(40))
        return msg[:2] + struct.pack("!HHHHH", 0x8180, 1, 40, 0, 0) + msg[12:end] + answers
    rec = ZONE.get(name)
    answers = b""
    count = 0
    if rec and qtype == 1 and rec[0]:
        answers += b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x3c\x00\x04" + socket.inet_aton(rec[0])
        count = 1
    if rec and qtype == 28 and rec[1]:
        answers += b"\xc0\x0c\x00\x1c\x00\x01\x00\x00\x00\x3c\x00\x10" + socket.inet_pton(socket.AF_INET6, rec[1])
        count = 1
    rcode = 0 if rec else 3
    head = msg[:2] + struct.pack("!HHHHH", 0x8180 | rcode, 1, count, 0, 0)
    return head + msg[12:end] + answers


def serve_dns(addr, mode="ok"):
    """MODE "ok" answers from ZONE; "servfail" answers SERVFAIL to everything; "silent"
    never answers (both log what reached them)."""
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((addr, 53))

    def reply(msg, tcp):
        if mode == "servfail":
            LOG.add("servfail-dns %s" % _qname(msg)[0])
            return msg[:2] + struct.pack("!HHHHH", 0x8182, 1, 0, 0, 0) + msg[12:_qname(msg)[2]]
        return dns_answer(msg, tcp)

    def udp():
        while True:
            msg, peer = u.recvfrom(4096)
            if mode == "silent":
                LOG.add("silent-dns %s" % _qname(msg)[0])
                continue
            try:
                u.sendto(reply(msg, False), peer)
            except Exception as e:  # noqa: BLE001 - a test server logs and goes on
                LOG.add("dns error %r" % e)
    threading.Thread(target=udp, daemon=True).start()
    t = socket.socket()
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind((addr, 53))
    t.listen(16)

    def tcp():
        while True:
            c, _ = t.accept()
            try:
                n = struct.unpack("!H", c.recv(2))[0]
                msg = b""
                while len(msg) < n:
                    msg += c.recv(n - len(msg))
                LOG.add("dns-tcp %s" % _qname(msg)[0])
                if mode == "silent":
                    c.close()
                    continue
                r = reply(msg, True)
                c.sendall(struct.pack("!H", len(r)) + r)
            except Exception as e:  # noqa: BLE001
                LOG.add("dns-tcp error %r" % e)
            c.close()
    threading.Thread(target=tcp, daemon=True).start()


def _listen(family, addr, port):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(64)
    return s


def _loop(sock, handler):
    def run():
        while True:
            c, peer = sock.accept()
            threading.Thread(target=handler, args=(c, sock.getsockname()[0]), daemon=True).start()
    threading.Thread(target=run, daemon=True).start()


def http_handler(c, local):
    f = c.makefile("rb")
    n = 0
    while True:
        try:
            line = f.readline()
        except OSError:  # the relay's reset, passed on
            LOG.add("http %s reset" % local)
            break
        if not line:
            break
        host = ""
        while True:
            h = f.readline()
            if h in (b"\r\n", b"\n", b""):
                break
            if h.lower().startswith(b"host:"):
                host = h[5:].strip().decode()
        n += 1
        LOG.add("http %s host=%s req=%d" % (local, host, n))
        body = ("host=%s\n" % host).encode()
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    c.close()


def echo_handler(c, local):
    parts = []
    while True:
        d = c.recv(1 << 20)
        if not d:
            break
        parts.append(d)
    data = b"".join(parts)
    LOG.add("echo %s got=%r" % (local, data[:40]))
    c.sendall(b"echo:" + data)  # after the client's half-close
    c.close()


def sink_handler(c, local):
    n = 0
    while True:
        d = c.recv(1 << 20)
        if not d:
            break
        n += len(d)
    c.sendall(b"%d" % n)
    c.close()


def trickle_handler(c, local):
    """Reads "SECONDS GAP\\n", then sends one byte every GAP seconds for SECONDS: a slow
    response with long silences, which the relay must neither cut nor time out."""
    import time
    line = c.makefile("rb").readline().split()
    total, gap = float(line[0]), float(line[1])
    LOG.add("trickle %s start %s" % (local, total))
    end = time.monotonic() + total
    sent = 0
    while time.monotonic() < end:
        time.sleep(min(gap, max(0.0, end - time.monotonic())))
        try:
            c.sendall(b".")
        except OSError:
            LOG.add("trickle %s cut after %d" % (local, sent))
            return
        sent += 1
    LOG.add("trickle %s done %d" % (local, sent))
    c.sendall(b"end")
    c.close()


def ping_handler(c, local):
    try:
        while True:
            d = c.recv(16)
            if not d:
                break
            c.sendall(d)
    except OSError:
        LOG.add("ping %s reset" % local)
    c.close()


def make_tls_context(cert, key):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)

    def sni(sslobj, name, _ctx):
        sslobj.sni_seen = name
    ctx.sni_callback = sni
    return ctx


def tls_handler_for(ctx):
    def handler(c, local):
        try:
            s = ctx.wrap_socket(c, server_side=True)
        except Exception as e:  # noqa: BLE001
            LOG.add("tls %s handshake-failed %r" % (local, e))
            c.close()
            return
        name = getattr(s, "sni_seen", None)
        LOG.add("tls %s sni=%s" % (local, name))
        try:
            s.recv(4096)
            s.sendall(("sni=%s\n" % name).encode())
        except Exception:  # noqa: BLE001
            pass
        s.close()
    return handler


def _setns(path):
    import ctypes
    import os
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
            raise OSError(ctypes.get_errno(), "setns " + path)
    finally:
        os.close(fd)


def start_all(cert, key, dns_addr, server_ns):
    """The servers of the zone live in SERVER_NS (another network namespace, reached
    through a veth pair), so that their addresses are not this host's own; the DNS
    server, the host's loopback service and the host's own address stay here."""
    import os
    here = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    serve_dns(dns_addr)
    serve_dns("127.0.0.54", "servfail")
    serve_dns("127.0.0.55", "silent")
    ctx = make_tls_context(cert, key)
    # A service of this host on its own interface address (self.wild.test).
    _loop(_listen(socket.AF_INET, "192.0.2.1", 80), http_handler)
    _loop(_listen(socket.AF_INET, "127.0.0.1", 80), http_handler)
    _setns(server_ns)
    try:
        _start_remote(ctx)
    finally:
        _setns("/proc/self/fd/%d" % here)
        os.close(here)


def _start_remote(ctx):
    for addr in ADDRS4:
        _loop(_listen(socket.AF_INET, addr, 80), http_handler)
        _loop(_listen(socket.AF_INET, addr, 443), tls_handler_for(ctx))
        _loop(_listen(socket.AF_INET, addr, 7000), echo_handler)
        _loop(_listen(socket.AF_INET, addr, 7001), echo_handler)
        _loop(_listen(socket.AF_INET, addr, 7002), sink_handler)
        _loop(_listen(socket.AF_INET, addr, 7003), ping_handler)
        _loop(_listen(socket.AF_INET, addr, 7004), trickle_handler)
    for addr in ADDRS6:
        _loop(_listen(socket.AF_INET6, addr, 80), http_handler)
        _loop(_listen(socket.AF_INET6, addr, 443), tls_handler_for(ctx))
    # A private service behind a name (inside.test).
    _loop(_listen(socket.AF_INET, "10.200.0.1", 80), http_handler)
    _loop(_listen(socket.AF_INET, "10.200.0.1", 443), tls_handler_for(ctx))
    # A foreign resolver the session must not reach directly.
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind(("198.51.100.53", 53))

    def foreign():
        while True:
            msg, peer = u.recvfrom(4096)
            LOG.add("foreign-dns %s" % _qname(msg)[0])
            u.sendto(dns_answer(msg), peer)
    threading.Thread(target=foreign, daemon=True).start()
    # UDP sinks: anything arriving proves a datagram left the session.
    for port in (443, 9999):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("198.51.100.10", port))

        def sink(sock=s, p=port):
            while True:
                d, _ = sock.recvfrom(4096)
                LOG.add("udp %d %r" % (p, d[:20]))
        threading.Thread(target=sink, daemon=True).start()
