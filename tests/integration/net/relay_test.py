#!/usr/bin/env python3
"""The session network relay against servers of its own (issue 12, network.md).

    relay_test.py --lash build/lash [--as-nobody] [--interception nftables|local]
    exit 0 pass, 1 fail, 77 skip (not root: it needs network namespaces of its own)

The harness re-runs itself in a new network and mount namespace (unshare), where it
puts test addresses on lo (198.51.100.0/24, 2001:db8::/32), binds its own
resolv.conf (nameserver 127.0.0.53, its DNS server) and starts the servers of
net_servers.py: DNS, HTTPS reporting the SNI it got, HTTP reporting each Host, TCP
echo with half-close, UDP sinks and a foreign resolver. lash then runs one session per
case under a [network] profile (as uid 65534 with --as-nobody), the client being
net_client.py. Each refusal is checked next to its allowance, and the servers' logs
prove what crossed and what did not.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
PY = "/usr/bin/python3"

PROFILE = """[profile]
description = network relay test

[process]
spawn_any = true

[filesystem]
include_workdir = true
system_paths = true
tmpdir = session

[network]
allow_hosts = allowed.test, *.wild.test, second.test
allow_ports = 80, 443, 7000, 7002-7004, 5201
block_all_others = true
{extra}
"""


def outer(args):
    if os.geteuid() != 0:
        print("SKIP: needs root for the test's own network namespace")
        return SKIP
    if not shutil.which("unshare") or not shutil.which("ip"):
        print("SKIP: unshare or ip missing")
        return SKIP
    cmd = ["unshare", "--net", "--mount", "--propagation", "private", sys.executable, os.path.abspath(__file__),
           "--inner"] + sys.argv[1:]
    return subprocess.call(cmd)


def sh(*cmd):
    subprocess.run(cmd, check=True)


class Env:
    def __init__(self, args):
        self.args = args
        self.base = tempfile.mkdtemp(prefix="lash-net.")
        os.chmod(self.base, 0o755)
        self.home = os.path.join(self.base, "home")
        os.makedirs(os.path.join(self.home, "profiles"))
        for d in (self.base, self.home):
            os.chmod(d, 0o755)
        shutil.copy(os.path.join(HERE, "net_client.py"), os.path.join(self.base, "client.py"))
        os.chmod(os.path.join(self.base, "client.py"), 0o644)
        if args.as_nobody:
            os.chown(self.home, 65534, 65534)
            os.chown(os.path.join(self.home, "profiles"), 65534, 65534)

    def profile(self, name, extra=""):
        path = os.path.join(self.home, "profiles", name + ".profile")
        with open(path, "w") as f:
            f.write(PROFILE.format(extra=extra) if extra != "raw" else "")
        if self.args.as_nobody:
            os.chown(path, 65534, 65534)
        return path

    def run(self, profile, case, *cargs, timeout=40):
        script = " ".join([PY, "client.py", case] + ["'%s'" % a for a in cargs])
        return self.run_script(profile, script, timeout=timeout)

    def lash_cmd(self, profile, script):
        cmd = [self.args.lash, "-p", profile, "-c", script]
        if self.args.as_nobody:
            cmd = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] + cmd
        env = {"PATH": "/usr/bin:/bin", "HOME": self.base, "LASH_HOME": self.home, "LC_ALL": "C"}
        if self.args.interception == "local":
            env["LASH_NET_INTERCEPTION"] = "local"
        return cmd, env

    def run_script(self, profile, script, timeout=40):
        cmd, env = self.lash_cmd(profile, script)
        p = subprocess.run(cmd, cwd=self.base, env=env, capture_output=True, text=True, timeout=timeout)
        return p.stdout.strip(), p.stderr.strip()

    def audit(self):
        try:
            with open(os.path.join(self.home, "audit.log")) as f:
                return f.read()
        except OSError:
            return ""


def inner(args):
    # This namespace is "the host": its DNS server, a service on loopback and one on its
    # own interface address (192.0.2.1). The zone's servers live in a second namespace
    # behind a veth pair, so their addresses are not the host's own.
    sh("ip", "link", "set", "lo", "up")
    for a in ("127.0.0.53", "127.0.0.54", "127.0.0.55"):  # resolvers: good, SERVFAIL, silent
        sh("ip", "addr", "add", a + "/32", "dev", "lo")
    holder = subprocess.Popen(["unshare", "--net", "sleep", "100000"])
    import atexit
    atexit.register(holder.kill)  # it holds the servers' namespace; nothing else does
    for _ in range(100):
        if os.readlink("/proc/%d/ns/net" % holder.pid) != os.readlink("/proc/self/ns/net"):
            break
        time.sleep(0.02)
    server_ns = "/proc/%d/ns/net" % holder.pid
    inside = ["nsenter", "--net=" + server_ns]
    sh("ip", "link", "add", "vhost", "type", "veth", "peer", "name", "vsrv", "netns", str(holder.pid))
    sh("ip", "addr", "add", "192.0.2.1/24", "dev", "vhost")
    sh("ip", "-6", "addr", "add", "2001:db8:ffff::1/64", "dev", "vhost", "nodad")
    sh("ip", "link", "set", "vhost", "up")
    sh(*inside, "ip", "link", "set", "lo", "up")
    sh(*inside, "ip", "addr", "add", "192.0.2.2/24", "dev", "vsrv")
    sh(*inside, "ip", "-6", "addr", "add", "2001:db8:ffff::2/64", "dev", "vsrv", "nodad")
    sh(*inside, "ip", "link", "set", "vsrv", "up")
    for a in ("198.51.100.10", "198.51.100.11", "198.51.100.12", "198.51.100.13", "198.51.100.20",
              "198.51.100.53", "10.200.0.1"):
        sh(*inside, "ip", "addr", "add", a + "/32", "dev", "lo")
    for a in ("2001:db8::10", "2001:db8::20"):
        sh(*inside, "ip", "-6", "addr", "add", a + "/128", "dev", "lo", "nodad")
    sh(*inside, "ip", "route", "add", "default", "via", "192.0.2.1")
    sh(*inside, "ip", "-6", "route", "add", "default", "via", "2001:db8:ffff::1")
    sh("ip", "route", "add", "198.51.100.0/24", "via", "192.0.2.2")
    sh("ip", "route", "add", "10.200.0.0/16", "via", "192.0.2.2")
    sh("ip", "-6", "route", "add", "2001:db8::/64", "via", "2001:db8:ffff::2")
    env = Env(args)
    resolv = os.path.join(env.base, "resolv.conf")
    with open(resolv, "w") as f:
        f.write("nameserver 127.0.0.53\noptions timeout:2 attempts:1\n")
    sh("mount", "--bind", resolv, "/etc/resolv.conf")
    cert, key = os.path.join(env.base, "cert.pem"), os.path.join(env.base, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=allowed.test"], check=True, capture_output=True)
    sys.path.insert(0, HERE)
    import net_servers as srv  # noqa: E402 - after the namespace exists
    srv.start_all(cert, key, "127.0.0.53", server_ns)
    iperf = None
    if shutil.which("iperf3"):
        iperf = subprocess.Popen(inside + ["iperf3", "-s", "-B", "198.51.100.10", "-p", "5201"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        atexit.register(iperf.kill)
    # An abstract unix socket of "the host": abstract names belong to a network
    # namespace, so the session's programs must not reach it (the open profile does).
    import socket as socketmod
    import threading
    abstract_srv = socketmod.socket(socketmod.AF_UNIX, socketmod.SOCK_STREAM)
    abstract_srv.bind("\0lash-net-test-host")
    abstract_srv.listen(8)

    def abstract_loop():
        while True:
            c, _ = abstract_srv.accept()
            srv.LOG.add("abstract got=%r" % c.recv(64))
            c.sendall(b"host-service")
            c.close()
    threading.Thread(target=abstract_loop, daemon=True).start()
    time.sleep(0.2)

    def set_resolvers(*servers):
        with open(resolv, "w") as f:
            f.write("".join("nameserver %s\n" % a for a in servers) + "options timeout:5 attempts:1\n")

    env.profile("net")
    env.profile("netwarn", "enforcement = warn")
    ips = env.profile("netips")
    with open(ips, "w") as f:  # the same profile with an IP rule added
        f.write(PROFILE.format(extra="").replace("second.test", "second.test, 10.200.0.0/16, 192.0.2.1"))
    env.profile("open", "raw")
    with open(os.path.join(env.home, "profiles", "open.profile"), "w") as f:
        f.write("[profile]\ndescription = open\n\n[process]\nspawn_any = true\n\n"
                "[filesystem]\ninclude_workdir = true\nsystem_paths = true\n\n[network]\nblock_all_others = false\n"
                "allow_hosts = allowed.test\n")

    fails = []
    passed = 0
    if args.bench:
        return bench(env, srv, inside)

    def expect(what, got, want, log_has=None, log_lacks=None):
        nonlocal passed
        out, err = got
        ok = want(out) if callable(want) else out == want
        if log_has and not srv.LOG.has(log_has):
            ok = False
            err += "\n(server log lacks %r)" % log_has
        if log_lacks and srv.LOG.has(log_lacks):
            ok = False
            err += "\n(server log has %r)" % log_lacks
        if ok:
            passed += 1
            print("ok   %s: %s" % (what, out))
        else:
            fails.append(what)
            print("FAIL %s: got %r\n     stderr: %s" % (what, out, err[-600:]))

    refused = lambda o: o.startswith("refused")  # noqa: E731
    # Names: allowed, refused, wildcard, apex, suffix trap, upper case, trailing dot.
    expect("allowed name resolves", env.run("net", "resolve", "allowed.test"),
           lambda o: "198.51.100.10" in o, log_has="dns allowed.test 1")
    expect("refused name is NXDOMAIN, never asked upstream", env.run("net", "resolve", "other.test"),
           lambda o: o.startswith("nxdomain"), log_lacks="dns other.test")
    expect("wildcard subdomain resolves", env.run("net", "resolve", "www.wild.test"), "198.51.100.11")
    expect("wildcard apex refused", env.run("net", "resolve", "wild.test"), lambda o: o.startswith("nxdomain"),
           log_lacks="dns wild.test")
    expect("suffix trap refused", env.run("net", "resolve", "evilwild.test"), lambda o: o.startswith("nxdomain"),
           log_lacks="dns evilwild.test")
    expect("upper case and trailing dot", env.run("net", "resolve", "ALLOWED.Test."),
           lambda o: "198.51.100.10" in o)
    # TLS: SNI by name over v4 and v6, IP literals, SNI mismatch.
    expect("https allowed name (v4)", env.run("net", "https", "allowed.test", "allowed.test"),
           "sni=allowed.test", log_has="tls 198.51.100.10 sni=allowed.test")
    expect("https allowed name (v6)", env.run("net", "https6", "allowed.test", "allowed.test"),
           "sni=allowed.test", log_has="tls 2001:db8::10 sni=allowed.test")
    # Port 443 takes only a handshake record carrying a ClientHello with one host_name
    # (F5): no SNI, another protocol or another record first go only by an IP rule.
    expect("https without SNI to an allowed name's address refused",
           env.run("net", "https", "allowed.test", ""), refused, log_lacks="sni=None")
    for what, data in (("SSH banner", b"SSH-2.0-OpenSSH_9.6\r\n"),
                       ("application data record first", bytes.fromhex("1703030005") + b"hello"),
                       ("change-cipher-spec record first", bytes.fromhex("140303000101") + b"SSH-2.0-x\r\n"),
                       ("plain HTTP", b"GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n")):
        expect("port 443, %s, to an allowed name's address refused" % what,
               env.run("net", "raw", "allowed.test", "443", data.hex()), refused,
               log_lacks="tls 198.51.100.10 handshake-failed")
    expect("https IP literal of allowed host (no DNS) refused",
           env.run("net", "https", "198.51.100.10", "allowed.test"), refused)
    expect("https IP literal of refused host refused", env.run("net", "https", "198.51.100.20", "other.test"),
           refused, log_lacks="sni=other.test")
    expect("https v6 literal refused", env.run("net", "https6", "2001:db8::20", "other.test"), refused,
           log_lacks="tls 2001:db8::20")
    expect("SNI differing from the resolved name refused",
           env.run("net", "resolve_then_https", "allowed.test", "allowed.test", "other.test"), refused,
           log_lacks="sni=other.test")
    expect("allowed SNI to an address of another name refused",
           env.run("net", "resolve_then_https", "www.wild.test", "www.wild.test", "allowed.test"), refused,
           log_lacks="tls 198.51.100.11 sni=allowed.test")
    # HTTP: Host on every request of a keep-alive connection.
    expect("http Host allowed, twice on one connection",
           env.run("net", "http", "allowed.test", "allowed.test", "allowed.test"),
           "host=allowed.test host=allowed.test", log_has="host=allowed.test req=2")
    expect("http second request with another Host cut",
           env.run("net", "http", "allowed.test", "allowed.test", "other.test"),
           lambda o: o.startswith("host=allowed.test ") and "other" not in o and o != "host=allowed.test host=allowed.test",
           log_lacks="host=other.test")
    # Port 80 takes only a well-formed request line (F4): what a server might read as a
    # request the relay did not check is refused, unless an IP rule allows the address.
    def hx(b):
        return b.hex()
    expect("raw well-formed request to an allowed name relayed",
           env.run("net", "raw", "second.test", "80", hx(b"GET / HTTP/1.1\r\nHost: second.test\r\n\r\n")),
           "reply=HTTP/1.1 200 OK", log_has="http 198.51.100.10 host=second.test")
    for what, data in (("leading empty line", b"\r\nGET / HTTP/1.1\r\nHost: exfil.test\r\n\r\n"),
                       ("leading space", b" GET / HTTP/1.1\r\nHost: exfil.test\r\n\r\n"),
                       ("lower-case method", b"get / HTTP/1.1\r\nHost: exfil.test\r\n\r\n"),
                       ("no request line", b"XYZ\r\nHost: exfil.test\r\n\r\n"),
                       ("two spaces", b"GET  / HTTP/1.1\r\nHost: exfil.test\r\n\r\n"),
                       ("HTTP/2 version", b"GET / HTTP/2.0\r\nHost: exfil.test\r\n\r\n"),
                       ("bare LF hiding a second Host",
                        b"GET / HTTP/1.1\r\nHost: allowed.test\r\nX: a\nHost: exfil.test\r\n\r\n"),
                       ("TLS on port 80", bytes.fromhex("160301000501") + b"Host: exfil.test\r\n\r\n")):
        expect("port 80, %s, to an allowed name's address refused" % what,
               env.run("net", "raw", "allowed.test", "80", hx(data)), refused, log_lacks="host=exfil.test")
    # Ports and half-close.
    expect("allowed non-HTTP port with half-close", env.run("net", "echo", "allowed.test", "7000", "ping"),
           "echo:ping", log_has="echo 198.51.100.10 got=b'ping'")
    expect("port not allowed refused", env.run("net", "echo", "allowed.test", "7001", "port7001"), refused,
           log_lacks="port7001")
    expect("64 MiB through the relay, sha256 intact", env.run("net", "bulk", "allowed.test", "64", timeout=120),
           "bytes=%d sha256 matches" % ((64 << 20) + 5))
    # UDP and DNS elsewhere.
    env.run("net", "udp", "198.51.100.10", "9999")
    env.run("net", "udp", "198.51.100.10", "443")
    time.sleep(0.3)
    expect("UDP to a random port and to 443 never leaves", ("", ""), "", log_lacks="udp ")
    expect("DNS to a foreign resolver answered by lash's policy",
           env.run("net", "dns_udp", "198.51.100.53", "other.test"), "rcode=3 answers=0",
           log_lacks="foreign-dns")
    expect("DNS to a foreign resolver for an allowed name is forwarded to the host's",
           env.run("net", "dns_udp", "198.51.100.53", "allowed.test"), "rcode=0 answers=1",
           log_lacks="foreign-dns")
    expect("HTTPS records get NODATA", env.run("net", "dns_udp", "127.0.0.53", "allowed.test", "65"),
           "rcode=0 answers=0", log_lacks="dns allowed.test 65")
    # The resolver gets a query lash built from the question alone (F3): not the
    # client's ID, letter case, EDNS options or extra records.
    for proto in ("", "tcp"):
        expect("DNS %s query smuggling data: answered, only the question left" % (proto or "udp"),
               env.run("net", "dns_smuggle", "127.0.0.53", "AlLoWeD.test", proto),
               "rcode=0 answers=1 id=same question=same", log_has="dns-raw b")
        leaked = [l for l in srv.LOG.text().splitlines()
                  if l.startswith("dns-raw") and ("exfil" in l or "AlLoWeD" in l or l.startswith("dns-raw b'BB"))]
        expect("DNS %s: nothing but the question reached the resolver" % (proto or "udp"), ("", ""),
               lambda o: not leaked)
    expect("DNS over TCP allowed", env.run("net", "dns_tcp", "127.0.0.53", "allowed.test"), "rcode=0 answers=1")
    expect("DNS over TCP refused name", env.run("net", "dns_tcp", "127.0.0.53", "other.test"), "rcode=3 answers=0")
    # Internal addresses behind a name, unless listed by IP.
    expect("a name leading to a private address refused", env.run("net", "http", "inside.test", "inside.test"),
           lambda o: refused(o) or o.startswith("nxdomain") or o == "closed", log_lacks="http 10.200.0.1")
    expect("the host's loopback is not the session's", env.run("net", "http", "127.0.0.1", "allowed.test"),
           lambda o: refused(o) or o == "closed", log_lacks="http 127.0.0.1")
    # (after the row above: it proves 10.200.0.1 was not reached before)
    expect("port 80 without a request line, allowed by an IP rule",
           env.run("netips", "raw", "10.200.0.1", "80", hx(b"get / HTTP/1.1\r\nHost: iprule.test\r\n\r\n")),
           "reply=HTTP/1.1 200 OK", log_has="http 10.200.0.1 host=iprule.test")
    # This host's own interface address behind an allowed name (F6), unless an IP rule.
    expect("a name leading to this host's own address refused",
           env.run("net", "http", "self.wild.test", "self.wild.test"), refused, log_lacks="http 192.0.2.1")
    expect("this host's own address allowed by an IP rule",
           env.run("netips", "http", "192.0.2.1", "self.wild.test"), "host=self.wild.test",
           log_has="http 192.0.2.1 host=self.wild.test")
    expect("https without SNI, allowed by an IP rule", env.run("netips", "https", "10.200.0.1", ""),
           "sni=None", log_has="tls 10.200.0.1 sni=None")
    # warn: would deny, relayed, recorded.
    expect("warn relays what enforce refuses", env.run("netwarn", "https", "198.51.100.20", "other.test"),
           "sni=other.test", log_has="tls 198.51.100.20 sni=other.test")
    expect("warn records it", ("x", ""), lambda o: "other.test" in env.audit())
    # block_all_others = false: no namespace, direct.
    expect("block_all_others = false reaches other hosts directly",
           env.run("open", "http", "198.51.100.20", "other.test"), "host=other.test",
           log_has="http 198.51.100.20 host=other.test")
    # DNS: every nameserver of resolv.conf in turn, over TCP as the client asks.
    set_resolvers("127.0.0.99", "127.0.0.53")  # nothing listens on the first
    expect("DNS: a nameserver refusing (ICMP) is skipped for the next",
           env.run("net", "dns_udp", "127.0.0.53", "allowed.test"), "rcode=0 answers=1")
    set_resolvers("127.0.0.54", "127.0.0.53")
    expect("DNS: a nameserver answering SERVFAIL is skipped for the next",
           env.run("net", "dns_udp", "127.0.0.53", "allowed.test"), "rcode=0 answers=1",
           log_has="servfail-dns allowed.test")
    set_resolvers("127.0.0.55", "127.0.0.53")
    expect("DNS: a silent nameserver is skipped after its timeout",
           env.run("net", "dns_udp", "127.0.0.53", "second.test"), "rcode=0 answers=1",
           log_has="silent-dns second.test")
    set_resolvers("127.0.0.99", "127.0.0.53")
    expect("DNS: a client's TCP query goes upstream over TCP, to the next nameserver too",
           env.run("net", "dns_tcp", "127.0.0.53", "www.wild.test"), "rcode=0 answers=1",
           log_has="dns-tcp www.wild.test")
    set_resolvers("127.0.0.54")
    expect("DNS: every nameserver failing is SERVFAIL",
           env.run("net", "dns_udp", "127.0.0.53", "allowed.test"), "rcode=2 answers=0")
    set_resolvers("127.0.0.53")
    expect("DNS: a truncated answer makes the resolver ask again over TCP, through the relay",
           env.run("net", "resolve", "big.wild.test"), lambda o: len(o.split()) == 40,
           log_has="dns-tcp big.wild.test")
    expect("DNS: the truncated UDP answer was seen first", ("", ""), "", log_has="dns-truncated big.wild.test")
    expect("DNS over TCP to a foreign resolver answered by lash's policy",
           env.run("net", "dns_tcp", "198.51.100.53", "other.test"), "rcode=3 answers=0",
           log_lacks="foreign-dns")
    # More ways around the relay: a v4-mapped IPv6 literal, a raw socket, an abstract
    # unix socket of the host (each next to the path that does work).
    expect("https to a v4-mapped IPv6 literal of a refused host refused",
           env.run("net", "https6", "::ffff:198.51.100.20", "mapped.test"), refused,
           log_lacks="sni=mapped.test")
    env.run("net", "raw_udp", "198.51.100.10", "9999")
    time.sleep(0.3)
    expect("a raw socket's UDP never leaves", ("", ""), "", log_lacks="udp ")
    expect("the host's abstract unix sockets are not the session's",
           env.run("net", "abstract", "lash-net-test-host"), refused, log_lacks="abstract got")
    direct = subprocess.run([PY, os.path.join(env.base, "client.py"), "abstract", "lash-net-test-host"],
                            capture_output=True, text=True)
    expect("the host's abstract unix socket, reached from the host", (direct.stdout.strip(), direct.stderr),
           "reply=host-service", log_has="abstract got=b'via-abstract'")
    # A slow response with long silences is neither cut nor timed out (90 s in
    # ./dev net-soak; shorter in the default run).
    dots = round(args.trickle / min(15.0, args.trickle / 3))
    expect("a %g-second trickle relayed whole" % args.trickle,
           env.run("net", "trickle", "allowed.test", "%g" % args.trickle, timeout=args.trickle + 60),
           "trickle dots=%d end=True whole=True" % dots, log_has="trickle 198.51.100.10 done %d" % dots)
    # Throughput of a real tool through the relay.
    if iperf:
        out = env.run_script("net", "iperf3 -4 -c allowed.test -p 5201 -t 2 -J", timeout=60)
        try:
            import json
            rate = json.loads(out[0])["end"]["sum_received"]["bits_per_second"]
        except (ValueError, KeyError, TypeError):
            rate = 0
        expect("iperf3 through the relay", ("%.2f Gbit/s" % (rate / 1e9), out[1] + out[0][-400:]),
               lambda o: rate > 1e8)
        expect("iperf3 to a port not allowed refused",
               env.run_script("net", "iperf3 -4 -c allowed.test -p 7001 -t 1 -J", timeout=60),
               lambda o: '"error"' in o)
    else:
        print("SKIP iperf3 rows: iperf3 is not installed (apt-get install iperf3)")
    # The relay's descriptors stay level across many connections (relayed, refused, DNS).
    fd_rows(env, expect)
    # Nothing left behind.
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", env.base],
                          capture_output=True, text=True).stdout.split()
    left = [p for p in left if int(p) != os.getpid()]
    nets = subprocess.run(["lsns", "-n", "-t", "net", "-o", "NS,COMMAND"], capture_output=True,
                          text=True).stdout.splitlines()
    expect("no process left after the sessions", ("", ""), lambda o: not left)
    expect("no network namespace held by a lash left", ("", ""),
           lambda o: not [n for n in nets if args.lash in n])
    print("%d passed, %d failed" % (passed, len(fails)))
    shutil.rmtree(env.base, ignore_errors=True)
    return 1 if fails else 0


def relay_of(pid):
    """The lash-relay process forked by lash PID, or None."""
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        comm = st[st.index("(") + 1:st.rindex(")")]
        ppid = int(st[st.rindex(")") + 2:].split()[1])
        if comm == "lash-relay" and ppid == pid:
            return int(p)
    return None


def fd_count(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return -1


def fd_rows(env, expect):
    marks = os.path.join(env.base, "marks")  # the session (maybe uid 65534) writes there
    os.makedirs(marks, exist_ok=True)
    os.chmod(marks, 0o777)
    marker, go = os.path.join(marks, "phase"), os.path.join(marks, "go")
    script = " ".join([PY, "client.py", "churn", "allowed.test", "150", marker, go])
    cmd, envv = env.lash_cmd("net", script)
    p = subprocess.Popen(cmd, cwd=env.base, env=envv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    counts = []
    relay = None
    try:
        for phase in (1, 2):
            deadline = time.monotonic() + 120
            while not os.path.exists("%s.%d" % (marker, phase)) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)  # the last connection's close reaches the relay
            relay = relay or relay_of(p.pid)
            counts.append(fd_count(relay) if relay else -1)
            with open("%s.%d" % (go, phase), "w") as f:
                f.write("x")
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    expect("churn through the relay: 300 relayed, 300 refused, 600 DNS queries", (out.strip(), err),
           "churn ok=300 refused=300")
    expect("the relay's descriptors are level after each burst", ("fds %s" % counts, ""),
           lambda o: len(counts) == 2 and counts[0] > 0 and counts[0] == counts[1] and counts[1] < 32)


def bench(env, srv, inside):
    """./dev bench (tests/bench/relay.sh): throughput, connect + 1-byte echo latency and
    1000 concurrent connections, direct, through lash's relay and through pasta, with
    the relay's CPU time per GB; one "name value" line each."""
    client = os.path.join(env.base, "client.py")

    def line(label, text):
        print("%s %s" % (label, text))
        sys.stdout.flush()

    def iperf(prefix):
        if not shutil.which("iperf3"):
            return 0.0
        try:
            r = subprocess.run(prefix + ["iperf3", "-c", "198.51.100.10", "-p", "5201", "-t", "4", "-J"],
                               capture_output=True, text=True, timeout=60, cwd=env.base)
            import json
            return json.loads(r.stdout)["end"]["sum_received"]["bits_per_second"] / 1e9
        except (ValueError, KeyError, TypeError, subprocess.TimeoutExpired):
            return 0.0
    if shutil.which("iperf3"):
        line("direct_iperf3_gbit", "%.2f" % iperf([]))
    line("direct_client", subprocess.run([PY, client, "bench", "198.51.100.10"], capture_output=True,
                                         text=True, cwd=env.base).stdout.strip())
    resets = srv.LOG.text().count(" reset")
    # Through the relay; its CPU time sampled while it lives.
    cmd, envv = env.lash_cmd("net", "iperf3 -4 -c allowed.test -p 5201 -t 4 -J; %s client.py bench allowed.test" % PY)
    p = subprocess.Popen(cmd, cwd=env.base, env=envv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cpu, relay = 0, None
    tick = os.sysconf("SC_CLK_TCK")
    while p.poll() is None:
        relay = relay or relay_of(p.pid)
        if relay:
            try:
                with open("/proc/%d/stat" % relay) as f:
                    st = f.read()
                fields = st[st.rindex(")") + 2:].split()
                cpu = (int(fields[11]) + int(fields[12])) / tick
            except (OSError, ValueError, IndexError):
                pass
        time.sleep(0.05)
    out = p.stdout.read().strip()
    err = p.stderr.read().strip()
    if err:
        line("relay_stderr", err[-300:].replace("\n", " | "))
    try:
        import json
        dec = json.JSONDecoder()
        doc, end = dec.raw_decode(out)
        rate = doc["end"]["sum_received"]["bits_per_second"] / 1e9
        gbytes = doc["end"]["sum_received"]["bytes"] / 1e9
        rest = out[end:].strip()
    except (ValueError, KeyError, TypeError):
        rate, gbytes, rest = 0.0, 0.0, out
    if shutil.which("iperf3"):
        line("relay_iperf3_gbit", "%.2f" % rate)
    line("relay_client", rest)
    # The bench client moves 512 MiB more; iperf3's bytes counted once each way.
    moved = gbytes + 0.537
    line("relay_cpu_s_per_gb", "%.3f" % (cpu / moved) if moved > 0 else "?")
    line("relay_server_resets", str(srv.LOG.text().count(" reset") - resets))
    if shutil.which("pasta"):
        # pasta copies this namespace's addresses and routes into a namespace of its own
        # (it needs a default route, and refuses to run as root: as nobody, like lash).
        subprocess.run(["ip", "route", "add", "default", "via", "192.0.2.2"], capture_output=True)
        pre = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "pasta", "--config-net", "-q",
               "--"]
        line("pasta_iperf3_gbit", "%.2f" % iperf(pre))
        try:
            text = subprocess.run(pre + [PY, client, "bench", "198.51.100.10"], capture_output=True, text=True,
                                  cwd=env.base, timeout=300).stdout.strip()
        except subprocess.TimeoutExpired:
            text = "timeout"
        line("pasta_client", text)
    else:
        line("pasta", "missing (apt-get install passt)")
    shutil.rmtree(env.base, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    ap.add_argument("--as-nobody", action="store_true")
    ap.add_argument("--interception", default="nftables")
    ap.add_argument("--inner", action="store_true")
    ap.add_argument("--bench", action="store_true", help="throughput, latency and 1000 connections, direct and relayed")
    ap.add_argument("--trickle", type=float, default=9.0, help="seconds of the trickle row (./dev net-soak: 90)")
    args = ap.parse_args()
    args.lash = os.path.abspath(args.lash)
    return inner(args) if args.inner else outer(args)


sys.exit(main())
