#!/usr/bin/env python3
"""lash as a user's login shell over a real sshd (issue 20, docs/login.md).

A private sshd (Debian's openssh-server) listens on a free loopback port with its own
host key and configuration in a temporary directory; a throwaway user whose login shell
is the built lash (added to /etc/shells with add-shell and set with chsh, the path an
administrator takes) logs in with a key. lash.conf (a temporary system directory, given
to the sessions by sshd's SetEnv) assigns, in turn:

  restricted  `ssh host CMD`, an interactive login through a pty, scp (both protocols),
              sftp and rsync: held to the profile, transfers refused with Problem/Suggestion
  transfer    (restricted + scp, rsync, sftp-server, writes to ~/incoming only): the same
              transfers work into ~/incoming, and one outside it is refused by the kernel
  default     the twin: that same transfer outside ~/incoming works
  limited     (restricted + [monitoring] idle_timeout, max_denials): an idle ssh session
              is ended, TMOUT cannot raise the limit; refusals end a session

    ssh_test.py --lash PATH

Needs root, sshd, ssh, scp, sftp, rsync, useradd/usermod/userdel, chsh, add-shell and
remove-shell; otherwise SKIP (exit 77) with the reason. Everything is removed afterwards:
the user and its processes, the /etc/shells line (when this test added it), /run/sshd
(when this test made it), the sshd and the temporary directory.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_harness import Term, Timeout  # noqa: E402

SFTP_SERVER = "/usr/lib/openssh/sftp-server"
failures = []


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


def check(name, fn):
    try:
        fn()
        print("PASS", name)
    except (Timeout, AssertionError, subprocess.TimeoutExpired) as e:
        print("FAIL", name, "\n", e)
        failures.append(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(4).startswith(b"SSH-"):
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def in_etc_shells(path):
    try:
        with open("/etc/shells") as f:
            return path in (line.strip() for line in f)
    except OSError:
        return False


def kill_uid(uid):
    """Every process of the throwaway user, one by one (its ssh sessions and jobs)."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/status" % d) as f:
                for line in f:
                    if line.startswith("Uid:") and int(line.split()[1]) == uid:
                        os.kill(int(d), signal.SIGKILL)
                        break
        except (OSError, ValueError):
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    args = ap.parse_args()
    lash = os.path.abspath(args.lash)
    if os.geteuid() != 0:
        skip("needs root to run sshd and create a throwaway user")
    sshd = shutil.which("sshd") or ("/usr/sbin/sshd" if os.access("/usr/sbin/sshd", os.X_OK) else None)
    if not sshd:
        skip("sshd is missing (apt-get install openssh-server; ./dev installs it)")
    tools = {t: shutil.which(t) for t in ("ssh", "ssh-keygen", "scp", "sftp", "rsync", "useradd", "usermod",
                                          "userdel", "chsh", "add-shell", "remove-shell")}
    missing = [t for t, p in tools.items() if not p]
    if missing:
        skip("missing: " + ", ".join(missing))
    if not os.access(SFTP_SERVER, os.X_OK):
        skip(SFTP_SERVER + " is missing")
    if os.path.exists("/etc/lash/lash.conf"):
        skip("a real /etc/lash/lash.conf exists; the test directory would not be honoured")
    p = os.path.dirname(lash)
    while p != "/":
        if not os.stat(p).st_mode & 0o001:
            skip(p + " is not searchable by other users")
        p = os.path.dirname(p)

    top = tempfile.mkdtemp(prefix="lash-ssh-")
    os.chmod(top, 0o755)
    sysdir = os.path.join(top, "etc-lash")
    os.mkdir(sysdir, 0o755)
    os.mkdir(os.path.join(sysdir, "profiles"), 0o755)
    home = os.path.join(top, "home")
    user = "lashssh%d" % (os.getpid() % 100000)
    uid = None
    added_shell = False
    made_run_sshd = False
    daemon = None
    try:
        # The account: made with another shell, then given lash the way docs/login.md says.
        r = subprocess.run([tools["useradd"], "-M", "-d", home, "-s", "/bin/sh", user], capture_output=True, text=True)
        if r.returncode != 0:
            skip("useradd failed: " + r.stderr.strip())
        uid = int(subprocess.run(["id", "-u", user], capture_output=True, text=True).stdout)
        # A locked password ("!") makes sshd refuse even a key; "*" is no password.
        subprocess.run([tools["usermod"], "-p", "*", user], check=True, capture_output=True)
        if not in_etc_shells(lash):
            subprocess.run([tools["add-shell"], lash], check=True, capture_output=True)
            added_shell = True
        r = subprocess.run([tools["chsh"], "-s", lash, user], capture_output=True, text=True)
        assert r.returncode == 0, "chsh failed: " + r.stderr
        os.makedirs(os.path.join(home, ".ssh"), 0o700)
        os.mkdir(os.path.join(home, "incoming"), 0o755)

        # Keys, known_hosts and the sshd configuration, all in TOP.
        for k in ("hostkey", "clientkey"):
            subprocess.run([tools["ssh-keygen"], "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(top, k)],
                           check=True, capture_output=True)
        shutil.copy(os.path.join(top, "clientkey.pub"), os.path.join(home, ".ssh", "authorized_keys"))
        for dirpath, dirs, files in os.walk(home):
            for n in dirs + files:
                shutil.chown(os.path.join(dirpath, n), user, user)
        shutil.chown(home, user, user)
        os.chmod(home, 0o755)
        port = free_port()
        with open(os.path.join(top, "known_hosts"), "w") as f:
            f.write("[127.0.0.1]:%d %s" % (port, open(os.path.join(top, "hostkey.pub")).read()))
        conf = os.path.join(top, "sshd_config")
        with open(conf, "w") as f:
            f.write("\n".join([
                "Port %d" % port, "ListenAddress 127.0.0.1",
                "HostKey %s/hostkey" % top, "PidFile %s/sshd.pid" % top,
                "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes", "PermitRootLogin no", "AllowUsers " + user,
                "PermitUserEnvironment no",
                # sftp-server through the login shell (never internal-sftp: docs/login.md).
                "Subsystem sftp " + SFTP_SERVER,
                # The temporary system policy directory for every session (ignored by lash
                # when a real /etc/lash/lash.conf exists).
                "SetEnv LASH_TEST_SYSTEM_DIR=" + sysdir,
                "LogLevel VERBOSE", ""]))
        if not os.path.isdir("/run/sshd"):
            os.makedirs("/run/sshd", 0o755)
            made_run_sshd = True
        r = subprocess.run([sshd, "-t", "-f", conf], capture_output=True, text=True)
        if r.returncode != 0:
            skip("sshd rejects the test configuration: " + r.stderr.strip())
        log = open(os.path.join(top, "sshd.log"), "w")
        daemon = subprocess.Popen([sshd, "-D", "-e", "-f", conf], stdout=log, stderr=log)
        if not wait_listening(port, daemon):
            log.flush()
            skip("sshd did not start: " + open(os.path.join(top, "sshd.log")).read()[-500:])

        client_home = os.path.join(top, "client")
        os.mkdir(client_home, 0o700)
        opts = ["-F", "/dev/null", "-i", os.path.join(top, "clientkey"), "-o", "IdentitiesOnly=yes",
                "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                "-o", "UserKnownHostsFile=" + os.path.join(top, "known_hosts"),
                "-o", "GlobalKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]
        env = {"PATH": "/usr/bin:/bin", "HOME": client_home, "TERM": "xterm", "LANG": "C.UTF-8"}
        target = user + "@127.0.0.1"
        ssh = [tools["ssh"], *opts, "-p", str(port)]

        def run(argv, timeout=120):
            return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout, cwd=top)

        def assign(profile):
            with open(os.path.join(sysdir, "lash.conf"), "w") as f:
                f.write("[users]\n%s = %s\n" % (user, profile))

        def put_profile(name, text):
            with open(os.path.join(sysdir, "profiles", name + ".profile"), "w") as f:
                f.write(text)

        payload = os.path.join(top, "payload.txt")
        with open(payload, "w") as f:
            f.write("payload-%d\n" % os.getpid())
        want = open(payload).read()

        def transfers(dest):
            """Each way of copying PAYLOAD to DEST (a path on the server, relative to the
            user's home): name -> argv."""
            return {
                "scp (sftp protocol)": [tools["scp"], *opts, "-P", str(port), payload, "%s:%s" % (target, dest)],
                "scp -O (scp protocol)": [tools["scp"], "-O", *opts, "-P", str(port), payload,
                                          "%s:%s" % (target, dest)],
                "rsync": [tools["rsync"], "-e", " ".join([tools["ssh"], *opts, "-p", str(port)]), payload,
                          "%s:%s" % (target, dest)],
                "sftp": [tools["sftp"], *opts, "-P", str(port), "-b", "-", target],
            }

        def sftp_batch(dest):
            return "put %s %s\n" % (payload, dest)

        def transfer(name, argv, dest):
            if name == "sftp":
                return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, cwd=top,
                                      input=sftp_batch(dest))
            return run(argv)

        def landed(rel):
            path = os.path.join(home, rel)
            ok = os.path.isfile(path) and open(path).read() == want
            if os.path.lexists(path):
                os.unlink(path)
            return ok

        # ---- restricted ------------------------------------------------------------
        def command_restricted():
            assign("restricted")
            r = run(ssh + [target, "whoami; env; echo env-status=$?; echo zero=$0; profile list"])
            assert user in r.stdout and "env-status=126" in r.stdout, (r.stdout, r.stderr)
            assert "Problem: This session (profile: restricted) cannot run 'env'" in r.stderr, r.stderr
            assert "* restricted" in r.stdout, r.stdout
            # sshd runs `lash -c CMD` for a command: not a login shell, the profile all the same.
            assert "zero=lash" in r.stdout, r.stdout

        def cannot_switch():
            assign("restricted")
            r = run(ssh + [target, "profile switch default; echo switch=$?; exec %s -p default -c env" % lash])
            assert "switch=126" in r.stdout and "Problem:" in r.stderr, (r.stdout, r.stderr)
            assert r.returncode == 126, (r.returncode, r.stdout, r.stderr)
            # sshd passes no environment from the client (no AcceptEnv): LASH_PROFILE stays home.
            r = run(ssh + ["-o", "SetEnv=LASH_PROFILE=default", target, "profile list"])
            assert "* restricted" in r.stdout, (r.stdout, r.stderr)

        def interactive_restricted():
            assign("restricted")
            t = Term(ssh + ["-tt", target], env=env, cwd=top)
            try:
                t.expect(r"\[restricted\] %s@\S+:~\$ " % user, 90)
                t.line("echo zero=$0 tty=$(tty >/dev/null && echo yes)")
                t.expect(r"zero=-lash")
                t.line("env")
                t.expect(r"Problem: This session \(profile: restricted\) cannot run 'env'")
                t.line("profile switch default; echo st=$?")
                t.expect(r"st=126")
                t.line("echo still-$((40+2))")
                t.expect(r"\nstill-42")
                t.line("exit")
                t.wait_exit(60)
            finally:
                t.close()

        def transfers_refused():
            assign("restricted")
            for name, argv in transfers("incoming/refused.txt").items():
                r = transfer(name, argv, "incoming/refused.txt")
                assert r.returncode != 0, (name, r.stdout, r.stderr)
                # sshd drops a subsystem's stderr, so for sftp lash says why in the sftp
                # protocol itself; scp over sftp prints only the status ("Permission
                # denied") of its first request, an open, where sftp prints the message.
                if name == "scp (sftp protocol)":
                    assert "Permission denied" in r.stderr, (name, r.stderr)
                else:
                    assert "Problem: This session (profile: restricted) cannot run" in r.stderr, (name, r.stderr)
                if name in ("sftp", "scp (sftp protocol)"):
                    if name == "sftp":
                        assert "(lash: sftp refused)" in r.stderr, (name, r.stderr)
                    log = os.path.join(home, ".lash", "audit.log")
                    text = open(log).read() if os.path.exists(log) else ""
                    assert '"target":"%s"' % SFTP_SERVER in text and '"decision":"deny"' in text, (name, text[-600:])
                assert not landed("incoming/refused.txt"), name + ": the file arrived"

        # ---- transfer: the same, allowed into ~/incoming -----------------------------------
        def transfers_allowed():
            put_profile("transfer", "[inherit]\nfrom = restricted\n[process]\n"
                        "spawn_allowlist = ls, cat, scp, rsync, %s\n[filesystem]\nread_write = %s/incoming\n"
                        % (SFTP_SERVER, home))
            assign("transfer")
            for name, argv in transfers("incoming/ok.txt").items():
                r = transfer(name, argv, "incoming/ok.txt")
                assert r.returncode == 0, (name, r.stdout, r.stderr)
                assert landed("incoming/ok.txt"), name + ": the file did not arrive whole"
            # Outside ~/incoming, in the user's own home (which the account may write): the
            # kernel refuses it under the profile, whatever the program.
            for name, argv in transfers("outside.txt").items():
                r = transfer(name, argv, "outside.txt")
                assert r.returncode != 0, (name, r.stdout, r.stderr)
                assert not landed("outside.txt"), name + ": wrote outside ~/incoming"
            r = run(ssh + [target, "env"])
            assert r.returncode == 126 and "Problem:" in r.stderr, (r.returncode, r.stderr)

        def twin_default():
            assign("default")
            for name, argv in transfers("outside.txt").items():
                r = transfer(name, argv, "outside.txt")
                assert r.returncode == 0, (name, r.stdout, r.stderr)
                assert landed("outside.txt"), name + ": the file did not arrive"
            r = run(ssh + [target, "env >/dev/null; echo env-status=$?"])
            assert "env-status=0" in r.stdout, (r.stdout, r.stderr)

        # ---- limited: idle timeout and max_denials ------------------------------------------
        def monitoring_over_ssh():
            put_profile("limited", "[inherit]\nfrom = restricted\n[monitoring]\nmax_denials = 2\nidle_timeout = 3\n")
            assign("limited")
            t = Term(ssh + ["-tt", target], env=env, cwd=top)
            try:
                t.expect(r"\[limited\] %s@\S+:~\$ " % user, 90)
                t.line("TMOUT=100000")
                t.expect(r"\$ ")
                t.expect("timed out waiting for input", 60)
                t.wait_exit(60)
            finally:
                t.close()
            r = run(ssh + [target, "env; echo between; (env); echo not-reached"])
            assert "between" in r.stdout and "not-reached" not in r.stdout, (r.stdout, r.stderr)
            assert "max_denials" in r.stderr and r.returncode == 126, (r.returncode, r.stderr)

        check("ssh: `ssh host CMD` runs `lash -c CMD` under the assigned restricted profile", command_restricted)
        check("ssh: the profile cannot be left (profile switch, exec lash -p, LASH_PROFILE)", cannot_switch)
        check("ssh: an interactive login through a pty is a restricted login shell (-lash)", interactive_restricted)
        check("ssh: scp, scp -O, sftp and rsync are refused with Problem/Suggestion under restricted",
              transfers_refused)
        check("ssh: a profile allowing them: each transfer works into ~/incoming, none outside it",
              transfers_allowed)
        check("ssh: the twin under default writes outside ~/incoming", twin_default)
        check("ssh: [monitoring] idle_timeout ends an idle ssh login; max_denials ends a session",
              monitoring_over_ssh)
    finally:
        if daemon:
            daemon.terminate()
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        if uid is not None:
            kill_uid(uid)
        subprocess.run(["userdel", user], capture_output=True)
        if added_shell:
            subprocess.run([tools["remove-shell"], lash], capture_output=True)
        if made_run_sshd:
            try:
                os.rmdir("/run/sshd")
            except OSError:
                pass
        if failures and os.path.exists(os.path.join(top, "sshd.log")):
            print("--- sshd log (end) ---\n" + open(os.path.join(top, "sshd.log")).read()[-3000:])
        shutil.rmtree(top, ignore_errors=True)
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
