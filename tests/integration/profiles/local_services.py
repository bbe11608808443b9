#!/usr/bin/env python3
"""Local services under a closed network: allow_bind and allow_loopback (profiles.md).

    local_services.py --lash build/lash [--as-nobody] [--interception nftables|local]
    exit 0 pass, 1 fail, 77 skip (not root: it needs a network namespace of its own)

The harness re-runs itself in a new network namespace, which plays "this host": it
runs a service on its loopback (127.0.0.1 and ::1, port HOST_PORT) and a decoy on
OWN_PORT. Each case runs lash under a profile and checks the refusal beside the twin
that works without it:
  - binding OWN_PORT is refused (Landlock) without allow_bind and works with it; the
    session's client then reaches the session's own server, not this host's decoy on
    the same port (the session's loopback is its own);
  - this host's service is refused without allow_loopback, with a Problem/Suggestion
    naming network.allow_loopback, and reached with it over IPv4 and IPv6; the same
    port on another address stays refused, and so does every other address of
    127.0.0.0/8 (other services of this host; 0.0.0.0 and :: are 127.0.0.1 / ::1
    for Linux, reached); profile test --net says the same for each target; a
    refused name is said and audited as "cannot resolve", with no port;
    an open network reaches all of it;
  - profile validate, profile review and the JSON plan show the keys.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
PY = "/usr/bin/python3"
OWN_PORT = 18888
HOST_PORT = 15432

BASE = """[profile]
description = local services test

[process]
spawn_any = true

[filesystem]
include_workdir = true
system_paths = true

[network]
block_all_others = {block}
{extra}
"""

CLIENT = r'''
import socket, sys
case = sys.argv[1]
def name(e):
    import errno
    return errno.errorcode.get(e.errno, str(e.errno)) if getattr(e, "errno", None) else type(e).__name__
if case == "bind":
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", int(sys.argv[2]))); s.listen(); print("bound")
    except OSError as e:
        print("bind " + name(e))
elif case == "serve":
    port = int(sys.argv[2])
    srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        srv.bind(("0.0.0.0", port)); srv.listen()
    except OSError as e:
        print("bind " + name(e)); sys.exit(0)
    c = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn, _ = srv.accept(); conn.sendall(b"own-service\n"); conn.close()
    print("got " + c.recv(64).decode().strip())
elif case == "resolve":
    for _ in range(3):  # said once however often a program asks
        try:
            print(socket.getaddrinfo(sys.argv[2], 443)[0][4][0])
        except OSError as e:
            print("nxdomain" if isinstance(e, socket.gaierror) else "error " + name(e))
elif case == "connect":
    fam = socket.AF_INET6 if ":" in sys.argv[2] else socket.AF_INET
    c = socket.socket(fam)
    c.settimeout(5)
    try:
        c.connect((sys.argv[2], int(sys.argv[3])))
        data = c.recv(64)
        print("got " + data.decode().strip() if data else "refused closed")
    except OSError as e:
        print("refused " + name(e))
'''


def outer(args):
    if os.geteuid() != 0:
        print("SKIP: needs root for the test's own network namespace")
        return SKIP
    if not shutil.which("unshare"):
        print("SKIP: unshare missing")
        return SKIP
    return subprocess.call(["unshare", "--net", sys.executable, os.path.abspath(__file__), "--inner"] + sys.argv[1:])


def serve(family, addr, port, reply):
    s = socket.socket(family)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((addr, port))
    s.listen(16)

    def loop():
        while True:
            c, _ = s.accept()
            try:
                c.sendall(reply)
            finally:
                c.close()
    threading.Thread(target=loop, daemon=True).start()


def inner(args):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    serve(socket.AF_INET, "127.0.0.1", HOST_PORT, b"host-service\n")
    serve(socket.AF_INET6, "::1", HOST_PORT, b"host-service-v6\n")
    serve(socket.AF_INET, "127.0.0.1", OWN_PORT, b"host-decoy\n")
    # Other services of "this host" on the same port, elsewhere in 127.0.0.0/8:
    # allow_loopback opens 127.0.0.1 and ::1 only.
    serve(socket.AF_INET, "127.0.0.2", HOST_PORT, b"other-service\n")
    serve(socket.AF_INET, "127.1.2.3", HOST_PORT, b"other-service\n")
    base = tempfile.mkdtemp(prefix="lash-local.")
    home = os.path.join(base, "home")
    os.makedirs(os.path.join(home, "profiles"))
    for d in (base, home):
        os.chmod(d, 0o755)
    with open(os.path.join(base, "client.py"), "w") as f:
        f.write(CLIENT)
    os.chmod(os.path.join(base, "client.py"), 0o644)
    owner = (65534, 65534) if args.as_nobody else (0, 0)
    os.chown(home, *owner)
    os.chown(os.path.join(home, "profiles"), *owner)

    def profile(name, block="true", extra=""):
        path = os.path.join(home, "profiles", name + ".profile")
        with open(path, "w") as f:
            f.write(BASE.format(block=block, extra=extra))
        os.chown(path, *owner)
        return path

    profile("closed")
    profile("bind", extra="allow_bind = %d" % OWN_PORT)
    profile("loop", extra="allow_loopback = %d" % HOST_PORT)
    profile("open", block="false")
    profile("ports", extra="allow_hosts = allowed.test\nallow_ports = %d" % HOST_PORT)
    profile("overlap", extra="allow_hosts = allowed.test\nallow_ports = %d, %d-%d\nallow_loopback = %d"
            % (HOST_PORT, HOST_PORT - 1, HOST_PORT + 1, HOST_PORT))
    both = profile("both", extra="allow_bind = 8000-9000\nallow_loopback = 8888")

    def run(prof, script, timeout=40):
        cmd = [args.lash, "-p", prof, "-c", script]
        if args.as_nobody:
            cmd = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] + cmd
        env = {"PATH": "/usr/bin:/bin", "HOME": base, "LASH_HOME": home, "LC_ALL": "C"}
        if args.interception == "local":
            env["LASH_NET_INTERCEPTION"] = "local"
        p = subprocess.run(cmd, cwd=base, env=env, capture_output=True, text=True, timeout=timeout)
        return p.stdout.strip(), p.stderr.strip()

    def client(prof, *cargs):
        return run(prof, " ".join([PY, "client.py"] + list(cargs)))

    fails, passed = [], 0

    def expect(what, got, want, err_has=None):
        nonlocal passed
        out, err = got
        ok = (want(out) if callable(want) else out == want) and (err_has is None or all(e in err for e in err_has))
        if ok:
            passed += 1
            print("ok   %s: %s" % (what, out.replace("\n", " | ")[:200]))
        else:
            fails.append(what)
            print("FAIL %s: got %r\n     stderr: %s" % (what, out, err[-800:]))

    # allow_bind: refusal and twin.
    expect("bind refused without allow_bind", client("closed", "bind", str(OWN_PORT)), "bind EACCES")
    expect("bind allowed by allow_bind", client("bind", "bind", str(OWN_PORT)), "bound")
    expect("another port still refused under allow_bind", client("bind", "bind", str(OWN_PORT + 1)), "bind EACCES")
    expect("port 0 always bindable", client("closed", "bind", "0"), "bound")
    expect("the session's own server, not this host's decoy", client("bind", "serve", str(OWN_PORT)),
           "got own-service")
    expect("the server is refused without allow_bind", client("closed", "serve", str(OWN_PORT)), "bind EACCES")
    expect("the same server works with an open network", client("open", "serve", str(OWN_PORT + 2)),
           "got own-service")

    # allow_loopback: this host's service.
    expect("host loopback refused by the kernel without any key", client("bind", "connect", "127.0.0.1",
                                                                          str(HOST_PORT)), "refused EACCES")
    # allow_ports lets the port past Landlock, to the relay, which still refuses this
    # host's loopback and says which key would allow it.
    expect("host loopback refused by the relay without allow_loopback",
           client("ports", "connect", "127.0.0.1", str(HOST_PORT)), lambda o: o.startswith("refused"),
           err_has=["Problem:", "Suggestion:", "allow_loopback (none)",
                    "Decided by network.allow_loopback (not set"])
    out, err = client("ports", "resolve", "refused.test")
    expect("a refused name is said once, naming its key", (out, err), "nxdomain\nnxdomain\nnxdomain",
           err_has=["Problem: This session (profile: ports) cannot resolve 'refused.test'.",
                    "Decided by network.allow_hosts (set at "])
    if err.count("Problem:") != 1:
        fails.append("said once")
        print("FAIL said once: %r" % err)
    expect("host loopback reached with allow_loopback", client("loop", "connect", "127.0.0.1", str(HOST_PORT)),
           "got host-service")
    expect("overlapping port lists (one listener per port in the local-route fallback)",
           client("overlap", "connect", "127.0.0.1", str(HOST_PORT)), "got host-service")
    expect("host loopback over IPv6", client("loop", "connect", "::1", str(HOST_PORT)), "got host-service-v6")
    # The rest of 127.0.0.0/8 is other services of this host: refused on an
    # allow_loopback port, said naming the key; 127.0.0.1 as IPv4-mapped and the
    # unspecified address (which Linux connects to 127.0.0.1 / ::1) are the twins.
    for addr in ("127.0.0.2", "127.1.2.3", "::ffff:127.0.0.2"):
        expect("another loopback address refused on an allow_loopback port (%s)" % addr,
               client("loop", "connect", addr, str(HOST_PORT)), lambda o: o.startswith("refused"),
               err_has=["Problem:", "allow_loopback opens only this host's 127.0.0.1 and ::1",
                        "Decided by network.allow_loopback (set at "])
    expect("127.0.0.1 IPv4-mapped reached", client("loop", "connect", "::ffff:127.0.0.1", str(HOST_PORT)),
           "got host-service")
    expect("0.0.0.0 is 127.0.0.1 for Linux: reached with allow_loopback",
           client("loop", "connect", "0.0.0.0", str(HOST_PORT)), "got host-service")
    expect(":: is ::1 for Linux: reached with allow_loopback", client("loop", "connect", "::", str(HOST_PORT)),
           "got host-service-v6")
    expect("0.0.0.0 refused without allow_loopback", client("ports", "connect", "0.0.0.0", str(HOST_PORT)),
           lambda o: o.startswith("refused"), err_has=["Decided by network.allow_loopback (not set"])
    # The dry run says what the session just did, target by target.
    targets = {"127.0.0.1": "allow", "[::1]": "allow", "[::ffff:127.0.0.1]": "allow", "0.0.0.0": "allow",
               "[::]": "allow", "127.0.0.2": "deny", "127.1.2.3": "deny", "[::ffff:127.0.0.2]": "deny"}
    script = "; ".join("profile test --net %s:%d loop | grep -m1 -o '^[a-z]*'" % (t, HOST_PORT) for t in targets)
    out, err = run("closed", script)
    expect("profile test --net agrees with the session", (" ".join(out.split()), err),
           " ".join(targets.values()))
    expect("the same port elsewhere stays refused", client("loop", "connect", "10.9.9.9", str(HOST_PORT)),
           lambda o: o.startswith("refused"))
    expect("allow_loopback gives no bind", client("loop", "bind", str(HOST_PORT)), "bind EACCES")
    expect("an open network reaches this host's service", client("open", "connect", "127.0.0.1", str(HOST_PORT)),
           "got host-service")
    audit = ""
    try:
        with open(os.path.join(home, "audit.log")) as f:
            audit = f.read()
    except OSError:
        pass
    recs = [json.loads(l) for l in audit.splitlines() if l.strip()]
    expect("the refusal is audited with its key",
           ("yes" if any(r.get("decision") == "deny" and "allow_loopback" in json.dumps(r) for r in recs) else
            "no", ""), "yes")

    expect("a refused name is audited as a DNS question, without a port",
           ("yes" if any(r.get("kind") == "dns" and r.get("target") == "refused.test" and "port" not in r and
                         "cannot resolve 'refused.test'" in r.get("problem", "") for r in recs) else
            "no: %r" % [r for r in recs if "refused.test" in json.dumps(r)][:2], ""), "yes")

    # Validation, review, JSON plan.
    expect("a port in both lists is an error", run("closed", "profile validate '%s'; echo status $?" % both),
           lambda o: o.endswith("status 1"), err_has=["allow_loopback", "also in allow_bind"])
    expect("review names the local services", run("closed", "profile review loop; profile review bind"),
           lambda o: ("this host's localhost:%d" % HOST_PORT) in o and ("may listen on %d" % OWN_PORT) in o)
    out, err = run("closed", "profile review --json --plan bind")
    try:
        net = json.loads(out)["sandbox"]["network"]
        got = "%s %s %s" % (net["bind_ports"], net["host_loopback_ports"],
                            {"from": OWN_PORT, "to": OWN_PORT} in net["connect_ports"])
    except (ValueError, KeyError) as e:
        got = "bad JSON: %s" % e
    expect("the JSON plan has the ports", (got, err), "[{'from': %d, 'to': %d}] [] True" % (OWN_PORT, OWN_PORT))

    shutil.rmtree(base, ignore_errors=True)
    print("%d passed, %d failed" % (passed, len(fails)))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    ap.add_argument("--as-nobody", action="store_true")
    ap.add_argument("--interception", default="nftables")
    ap.add_argument("--inner", action="store_true")
    args = ap.parse_args()
    args.lash = os.path.abspath(args.lash)
    return inner(args) if args.inner else outer(args)


if __name__ == "__main__":
    sys.exit(main())
