#!/usr/bin/env python3
"""The refused sftp subsystem speaks sftp (src/interactive/sftp_refusal.h), without sshd:
`lash -c /usr/lib/openssh/sftp-server` on pipes, as sshd starts it, under `restricted`
(refused) and `default` (the real server answers: the twin). Bad input ends it at once.

    sftp_refusal_test.py --lash PATH
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

SFTP_SERVER = "/usr/lib/openssh/sftp-server"
failures = []


def check(name, fn):
    try:
        fn()
        print("PASS", name)
    except (AssertionError, subprocess.TimeoutExpired, OSError, struct.error) as e:
        print("FAIL", name, "\n", repr(e))
        failures.append(name)


def pkt(body):
    return struct.pack(">I", len(body)) + body


def init():
    return pkt(b"\x01" + struct.pack(">I", 3))


def realpath(req_id, path=b"."):
    return pkt(b"\x10" + struct.pack(">I", req_id) + struct.pack(">I", len(path)) + path)


def read_packet(f):
    head = f.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    return f.read(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    lash = os.path.abspath(ap.parse_args().lash)
    if not os.access(SFTP_SERVER, os.X_OK):
        print("SKIP:", SFTP_SERVER, "is missing (apt-get install openssh-server; ./dev installs it)")
        sys.exit(77)
    home = tempfile.mkdtemp(prefix="lash-sftp-")
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LASH_HOME": os.path.join(home, ".lash")}

    def start(profile):
        return subprocess.Popen([lash, "-p", profile, "-c", SFTP_SERVER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=home)

    def refused_in_protocol():
        p = start("restricted")
        try:
            p.stdin.write(init() + realpath(7) + realpath(8, b"/etc"))
            p.stdin.flush()
            v = read_packet(p.stdout)
            assert v is not None and v[0] == 2 and struct.unpack(">I", v[1:5])[0] == 3, v
            for want_id in (7, 8):
                s = read_packet(p.stdout)
                assert s is not None and s[0] == 101, s
                rid, code, mlen = struct.unpack(">III", s[1:13])
                msg = s[13:13 + mlen].decode()
                assert rid == want_id and code == 3, (rid, code)
                assert "Problem: This session (profile: restricted) cannot run" in msg, msg
                assert "(lash: sftp refused)" in msg, msg
            p.stdin.close()
            assert p.wait(30) == 126, p.returncode
            assert b"Problem:" in p.stderr.read()
        finally:
            p.kill()
            p.wait()

    def bad_input_ends_it():
        for junk in (b"", b"\x00\x00\x00\x00", b"\xff\xff\xff\xff\x01", realpath(1), init() + init(),
                     init() + pkt(b"\x10"), b"\x00\x00\x00\x05\x01\x00"):
            p = start("restricted")
            try:
                t0 = time.monotonic()
                p.stdin.write(junk)
                p.stdin.close()
                assert p.wait(30) == 126, (junk, p.returncode)
                assert time.monotonic() - t0 < 20, junk
            finally:
                p.kill()
                p.wait()

    def twin_default_serves():
        p = start("default")
        try:
            p.stdin.write(init() + realpath(9))
            p.stdin.flush()
            v = read_packet(p.stdout)
            assert v is not None and v[0] == 2, v
            s = read_packet(p.stdout)
            assert s is not None and s[0] == 104, s  # SSH_FXP_NAME: the real server answered
            assert home.encode() in s, s
            p.stdin.close()
            assert p.wait(30) == 0, p.returncode
        finally:
            p.kill()
            p.wait()

    try:
        check("sftp refusal: every request gets PERMISSION_DENIED with the Problem/Suggestion text",
              refused_in_protocol)
        check("sftp refusal: bad or no input ends it at once, status 126", bad_input_ends_it)
        check("sftp refusal: the twin under default is the real sftp server", twin_default_serves)
    finally:
        subprocess.run(["rm", "-rf", home])
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
