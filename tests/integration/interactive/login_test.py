#!/usr/bin/env python3
"""A restricted login, set up the way docs/login.md tells an administrator to
(issue 20): a throwaway user whose login shell is lash, assigned the `restricted`
profile in lash.conf, logs in through a pseudo-terminal with `runuser -l` (what
`su -` and sshd do: argv[0] "-lash", a login shell). The session must be under
`restricted`, read the login files, and be unable to leave the profile; the twin
(the same user without the assignment) runs what restricted refuses.

    login_test.py --lash PATH

Needs root, useradd/userdel and runuser; otherwise SKIP (exit 77). The system policy
directory is a temporary one (LASH_TEST_SYSTEM_DIR, passed through runuser's
--whitelist-environment), never the real /etc/lash.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_harness import Term, Timeout  # noqa: E402

PROMPT = r"\$ |# "


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    args = ap.parse_args()
    lash = os.path.abspath(args.lash)
    if os.geteuid() != 0:
        skip("needs root to create a throwaway user")
    for tool in ("useradd", "userdel", "runuser"):
        if not shutil.which(tool):
            skip(tool + " is missing")
    if os.path.exists("/etc/lash/lash.conf"):
        skip("a real /etc/lash/lash.conf exists; the test directory would not be honoured")
    # Every directory on the way to lash must be searchable by the user.
    p = os.path.dirname(lash)
    while p != "/":
        if not os.stat(p).st_mode & 0o001:
            skip(p + " is not searchable by other users")
        p = os.path.dirname(p)

    top = tempfile.mkdtemp(prefix="lash-login-")
    os.chmod(top, 0o755)
    sysdir = os.path.join(top, "etc-lash")
    os.mkdir(sysdir, 0o755)
    home = os.path.join(top, "home")
    user = "lashtest%d" % (os.getpid() % 100000)
    failures = []
    try:
        r = subprocess.run(["useradd", "-M", "-d", home, "-s", lash, user], capture_output=True, text=True)
        if r.returncode != 0:
            skip("useradd failed: " + r.stderr.strip())
        os.mkdir(home, 0o755)
        os.mkdir(os.path.join(home, ".lash"), 0o700)
        with open(os.path.join(home, ".lash", "login"), "w") as f:
            f.write("USER_LOGIN_READ=yes\n")
        shutil.chown(os.path.join(home, ".lash", "login"), user, user)
        shutil.chown(os.path.join(home, ".lash"), user, user)
        shutil.chown(home, user, user)
        with open(os.path.join(sysdir, "login"), "w") as f:
            f.write("SYSTEM_LOGIN_READ=yes\n")
        with open(os.path.join(sysdir, "lash.conf"), "w") as f:
            f.write("[users]\n%s = restricted\n" % user)

        env = {"PATH": "/usr/bin:/bin", "TERM": "xterm", "LASH_TEST_SYSTEM_DIR": sysdir}
        argv = [shutil.which("runuser"), "-l", user, "-w", "LASH_TEST_SYSTEM_DIR"]

        def check(name, fn):
            try:
                fn()
                print("PASS", name)
            except (Timeout, AssertionError, KeyError, ValueError) as e:
                print("FAIL", name, "\n", e)
                failures.append(name)

        def restricted_login():
            t = Term(argv, env=env, cwd=top)
            try:
                t.expect(r"\[restricted\] %s@\S+:~\$ " % user, 60)
                t.line("echo $0 sys=$SYSTEM_LOGIN_READ user=$USER_LOGIN_READ")
                t.expect(r"-lash sys=yes user=yes")
                t.line("whoami")
                t.expect(r"\n%s\r?\n" % user)
                t.line("env")
                t.expect(r"Problem: This session \(profile: restricted\) cannot run 'env'")
                t.line("profile switch default")
                t.expect(r"Problem: .*profile switch")
                t.line("echo st=$?")
                t.expect(r"st=126")
                t.line("exec %s -p default" % lash)
                t.expect(r"Problem: .*cannot run")
                t.line("LASH_PROFILE=default; echo still; profile list")
                t.expect(r"\* restricted")
                t.line("exit")
                t.wait_exit(30)
            finally:
                t.close()

        def command_login():
            # What sshd runs for `ssh host CMD` and su for `su - USER -c CMD`: $SHELL -c CMD.
            r = subprocess.run(argv + ["-c", "whoami; env; echo env-status=$?"], env=env, capture_output=True,
                               text=True, timeout=120)
            assert user in r.stdout and "env-status=126" in r.stdout, (r.stdout, r.stderr)
            assert "Problem: This session (profile: restricted) cannot run 'env'" in r.stderr, r.stderr

        admin_env = dict(env, HOME=os.path.join(top, "admin"), LASH_HOME=os.path.join(top, "admin", ".lash"))

        def review_user(*extra):
            """`profile review --user USER` as the administrator (root), no login."""
            r = subprocess.run([lash, "-c", "profile review %s --user %s" % (" ".join(extra), user)], env=admin_env,
                               capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (r.stdout, r.stderr)
            return r.stdout

        def review_assigned():
            out = review_user()
            assert "user:     %s (uid " % user in out, out
            assert "shell:    %s (this lash)" % lash in out, out
            want = "profile:  restricted: assigned by %s/lash.conf:2; the user cannot choose another" % sysdir
            assert want in out, out
            assert "Profile: restricted" in out and "run:" in out, out  # then the review itself
            doc = json.loads(review_user("--json"))
            u = doc["user"]
            assert (u["name"], u["profile"], u["origin"], u["assigned"], u["may_switch"]) == \
                (user, "restricted", "assigned", True, False), u
            assert doc["profile"] == "restricted", doc.get("profile")
            r = subprocess.run([lash, "-c", "profile review --user no-such-user-xyz"], env=admin_env,
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 2 and "no such user" in r.stderr, (r.returncode, r.stderr)

        def twin_without_assignment():
            with open(os.path.join(sysdir, "lash.conf"), "w") as f:
                f.write("[users]\nsomebody-else = restricted\n")
            r = subprocess.run(argv + ["-c", "env >/dev/null; echo env-status=$?; profile list"], env=env,
                               capture_output=True, text=True, timeout=120)
            assert "env-status=0" in r.stdout and "* default" in r.stdout, (r.stdout, r.stderr)
            out = review_user()
            assert "profile:  default: not assigned by lash.conf: the built-in default" in out, out
            # The user's own choice, which their login would take.
            with open(os.path.join(home, ".lash", "config"), "w") as f:
                f.write("[profile]\ndefault = script\n")
            shutil.chown(os.path.join(home, ".lash", "config"), user, user)
            out = review_user()
            want = "profile:  script: not assigned by lash.conf: the user's own default from %s/.lash/config:2" % home
            assert want in out, out
            r = subprocess.run(argv + ["-c", "profile list"], env=env, capture_output=True, text=True, timeout=120)
            assert "* script" in r.stdout, (r.stdout, r.stderr)

        check("login: runuser -l gives a lash login shell under the assigned restricted profile", restricted_login)
        check("login: `$SHELL -c CMD` (ssh host CMD, su -c) is held to the profile", command_login)
        check("login: `profile review --user` shows the assigned profile without logging in", review_assigned)
        check("login: the twin without the assignment runs what restricted refuses; review --user follows",
              twin_without_assignment)
    finally:
        subprocess.run(["userdel", user], capture_output=True)
        shutil.rmtree(top, ignore_errors=True)
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
