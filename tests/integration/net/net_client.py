"""The client side of relay_test.py, run by lash inside the session: one case per run,
one line of result on stdout ("refused: ..." when the connection failed)."""

import socket
import ssl
import struct
import sys


def resolve(name, family=socket.AF_UNSPEC):
    try:
        infos = socket.getaddrinfo(name, 443, family, socket.SOCK_STREAM)
    except socket.gaierror as e:
        return "nxdomain(%s)" % e.errno
    return " ".join(sorted({i[4][0] for i in infos}))


def addr_of(host, family):
    return socket.getaddrinfo(host, 0, family, socket.SOCK_STREAM)[0][4][0]


def https(target, sni, family=socket.AF_INET):
    ip = target if target[0].isdigit() or ":" in target else addr_of(target, family)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    s = socket.create_connection((ip, 443), timeout=10)
    t = ctx.wrap_socket(s, server_hostname=sni or None)
    t.sendall(b"hello")
    return t.recv(4096).decode().strip()


def http(target, *hosts):
    ip = target if target[0].isdigit() else addr_of(target, socket.AF_INET)
    s = socket.create_connection((ip, 80), timeout=10)
    f = s.makefile("rb")
    out = []
    for h in hosts:
        try:
            s.sendall(("GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % h).encode())
            line = f.readline()
        except OSError as e:
            out.append("refused: %s" % type(e).__name__)
            break
        if not line:
            out.append("closed")
            break
        length = 0
        while True:
            l = f.readline()
            if l in (b"\r\n", b""):
                break
            if l.lower().startswith(b"content-length:"):
                length = int(l.split(b":")[1])
        out.append(f.read(length).decode().strip())
    return " ".join(out)


def echo(target, port, data):
    ip = target if target[0].isdigit() else addr_of(target, socket.AF_INET)
    s = socket.create_connection((ip, int(port)), timeout=10)
    s.sendall(data.encode())
    s.shutdown(socket.SHUT_WR)  # half-close: the server answers after our EOF
    got = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        got += d
    return got.decode()


def raw(target, port, hexbytes):
    """Sends the bytes HEXBYTES as they are, half-closes, and reports the first line back."""
    ip = target if target[0].isdigit() else addr_of(target, socket.AF_INET)
    s = socket.create_connection((ip, int(port)), timeout=10)
    s.sendall(bytes.fromhex(hexbytes))
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        got += d
    return "reply=%s" % got.split(b"\r\n")[0].decode("latin-1") if got else "closed"


def bulk(target, mib):
    import hashlib
    import os
    import threading
    data = os.urandom(int(mib) << 20)
    ip = addr_of(target, socket.AF_INET)
    s = socket.create_connection((ip, 7000), timeout=60)

    def send():
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
    t = threading.Thread(target=send)
    t.start()
    h = hashlib.sha256()
    n = 0
    while True:
        d = s.recv(1 << 20)
        if not d:
            break
        h.update(d)
        n += len(d)
    t.join()
    same = h.hexdigest() == hashlib.sha256(b"echo:" + data).hexdigest()
    return "bytes=%d sha256 %s" % (n, "matches" if same else "differs")


def bench(target):
    """Bulk throughput (512 MiB to a sink), median connect + 1-byte echo, and 1000
    concurrent connections held open at once, as one line."""
    import time
    ip = target if target[0].isdigit() else addr_of(target, socket.AF_INET)
    block = b"x" * (1 << 20)
    s = socket.create_connection((ip, 7002), timeout=60)
    t0 = time.perf_counter()
    for _ in range(512):
        s.sendall(block)
    s.shutdown(socket.SHUT_WR)
    got = int(s.recv(64))
    dt = time.perf_counter() - t0
    gbit = got * 8 / dt / 1e9
    lat = []
    for _ in range(200):
        t = time.perf_counter()
        c = socket.create_connection((ip, 7003), timeout=10)
        c.sendall(b"!")
        c.recv(1)
        lat.append((time.perf_counter() - t) * 1000)
        c.close()
    lat.sort()
    conns, ok = [], 0
    try:
        for _ in range(1000):
            c = socket.create_connection((ip, 7003), timeout=30)
            conns.append(c)
        for c in conns:
            c.sendall(b"?")
        for c in conns:
            ok += c.recv(1) == b"?"
    except OSError:
        pass  # counted: fewer than 1000 answered
    for c in conns:
        c.close()
    return "gbit=%.2f connect_echo_ms_median=%.3f concurrent_ok=%d" % (gbit, lat[len(lat) // 2], ok)


def trickle(target, seconds):
    """A response trickling for SECONDS with silences of up to 15 s: every byte and the
    end must arrive, no sooner than SECONDS."""
    import time
    total = float(seconds)
    gap = min(15.0, total / 3)
    ip = addr_of(target, socket.AF_INET)
    t0 = time.monotonic()
    s = socket.create_connection((ip, 7004), timeout=total + 30)
    s.sendall(b"%g %g\n" % (total, gap))
    got = b""
    while True:
        d = s.recv(64)
        if not d:
            break
        got += d
    took = time.monotonic() - t0
    return "trickle dots=%d end=%s whole=%s" % (got.count(b"."), got.endswith(b"end"), took >= total)


def churn(target, count, marker, go):
    """COUNT rounds of: a relayed connection (1-byte echo), a refused one (port 7001),
    a DNS query over UDP and one over TCP. Then writes MARKER and waits for GO, so the
    test can count the relay's descriptors between two such bursts; twice."""
    import os
    import time
    ip = addr_of(target, socket.AF_INET)
    ok = refused = 0
    for phase in (1, 2):
        for _ in range(int(count)):
            c = socket.create_connection((ip, 7003), timeout=10)
            c.sendall(b"!")
            ok += c.recv(1) == b"!"
            c.close()
            try:
                r = socket.create_connection((ip, 7001), timeout=10)
                r.sendall(b"x")
                refused += r.recv(1) == b""
                r.close()
            except OSError:
                refused += 1
            dns_udp("127.0.0.53", target)
            dns_tcp("127.0.0.53", target)
        with open("%s.%d" % (marker, phase), "w") as f:
            f.write("x")
        while not os.path.exists("%s.%d" % (go, phase)):
            time.sleep(0.05)
    return "churn ok=%d refused=%d" % (ok, refused)


def raw_udp(ip, port):
    """A UDP datagram built by hand on a raw socket (needs CAP_NET_RAW, which a session
    may hold in its own namespaces): it must not leave the session's namespace either."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
    except OSError as e:
        return "no-raw-socket(%d)" % e.errno
    payload = b"leak-by-raw"
    s.sendto(struct.pack("!HHHH", 40000, int(port), 8 + len(payload), 0) + payload, (ip, 0))
    return "sent"


def abstract(name):
    """Connects to the abstract unix socket NAME (those belong to a network namespace)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect("\0" + name)
    s.sendall(b"via-abstract")
    return "reply=%s" % s.recv(64).decode()


def udp(ip, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.sendto(b"leak-by-udp", (ip, int(port)))
        s.sendto(b"leak-by-udp", (ip, int(port)))
    except OSError as e:
        return "send-failed(%d)" % e.errno
    return "sent"


def query(name, qtype=1):
    q = struct.pack("!HHHHHH", 0x4242, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack("!HH", qtype, 1)


def summary(r):
    rcode = r[3] & 0xf
    an = struct.unpack("!H", r[6:8])[0]
    return "rcode=%d answers=%d" % (rcode, an)


def dns_udp(server, name, qtype="1"):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(5)
    s.sendto(query(name, int(qtype)), (server, 53))
    return summary(s.recv(4096))


def dns_smuggle(server, name, tcp=""):
    """A query carrying data beyond its question: the ID 0x4242, NAME's letter case,
    an EDNS option and a TXT record in the additional section. Reports whether the
    answer comes back to this ID and question, as the client sent them."""
    q = struct.pack("!HHHHHH", 0x4242, 0x0100, 1, 0, 0, 2)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    question = q[12:] + b"\x00" + struct.pack("!HH", 1, 1)
    q = q[:12] + question
    opt = struct.pack("!HH", 65001, 10) + b"exfil-edns"
    q += b"\x00" + struct.pack("!HHIH", 41, 4096, 0, len(opt)) + opt
    txt = b"\x09exfil-txt"
    q += b"\x00" + struct.pack("!HHIH", 16, 1, 0, len(txt)) + txt
    if tcp:
        s = socket.create_connection((server, 53), timeout=5)
        s.sendall(struct.pack("!H", len(q)) + q)
        n = struct.unpack("!H", s.recv(2))[0]
        r = b""
        while len(r) < n:
            r += s.recv(n - len(r))
    else:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(5)
        s.sendto(q, (server, 53))
        r = s.recv(4096)
    same_id = r[:2] == b"\x42\x42"
    same_q = r[12:12 + len(question)] == question
    return summary(r) + " id=%s question=%s" % ("same" if same_id else "other", "same" if same_q else "other")


def dns_tcp(server, name):
    s = socket.create_connection((server, 53), timeout=5)
    q = query(name)
    s.sendall(struct.pack("!H", len(q)) + q)
    n = struct.unpack("!H", s.recv(2))[0]
    r = b""
    while len(r) < n:
        r += s.recv(n - len(r))
    return summary(r)


# Cases that print what their function returns for the given arguments.
PLAIN = {"http": http, "raw": raw, "echo": echo, "bulk": bulk, "bench": bench, "udp": udp,
         "trickle": trickle, "churn": churn, "raw_udp": raw_udp, "abstract": abstract,
         "dns_udp": dns_udp, "dns_smuggle": dns_smuggle, "dns_tcp": dns_tcp}


def main():
    case, args = sys.argv[1], sys.argv[2:]
    try:
        if case == "resolve":
            print(resolve(args[0]))
        elif case == "resolve6":
            print(resolve(args[0], socket.AF_INET6))
        elif case == "https":
            print(https(args[0], args[1] if len(args) > 1 else ""))
        elif case == "https6":
            print(https(args[0], args[1], socket.AF_INET6))
        elif case == "resolve_then_https":  # resolve A, then TLS to B's address with SNI C
            resolve(args[0])
            print(https(addr_of(args[1], socket.AF_INET), args[2]))
        elif case in PLAIN:
            print(PLAIN[case](*args))
        else:
            sys.exit("net_client: unknown case %r" % case)
    except (OSError, ssl.SSLError) as e:
        print("refused: %s" % type(e).__name__)


main()
