#!/usr/bin/env python3
"""lash fails closed when its audit log cannot be written (issue 18).

    audit_fail_closed.py --lash build/lash [--probe build/tests/helpers/lash-probe]
        [--as-nobody]     (as root: run it as uid 65534 through setpriv instead)
    exit 0 pass, 1 fail, 77 skip

Each case runs a session whose first command waits on stdin, breaks the audit log
from outside (this harness plays the part of whatever fills the disk or lowers
lash's limits), then lets the session go on: a denial (or, under [monitoring], an
allowed program) must be recorded, the write fails, and every later program and
redirection must be refused with status 126 and a Problem naming the cause. The twin
of every case runs the same session without breaking anything: the denial is in the
log, the program runs, the redirection writes.

Cases:
  fsize      RLIMIT_FSIZE of lash lowered to 0 with prlimit (root, or the same uid)
  full       the audit log on a 2 MiB tmpfs filled up (root with mount rights only)
  from-child a program of the session tries the same prlimit on lash (getppid()):
             refused by the seccomp filter, and the denial after it is in the log
"""

import argparse
import ctypes
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
FORBIDDEN = "/usr/bin/id"


def profile_text(monitoring, probe):
    allow = "cat, sh" + (", " + probe if probe else "")
    text = f"""[profile]
description = audit fail-closed test

[process]
spawn_any = false
spawn_allowlist = {allow}

[filesystem]
include_workdir = true
system_paths = true

[capabilities]
file_redirect = true
"""
    if monitoring:
        text += "\n[monitoring]\nenabled = true\n"
    return text


class Tree:
    def __init__(self, monitoring=False, probe=None):
        self.base = tempfile.mkdtemp(prefix="lash-auditfc.")
        os.chmod(self.base, 0o755)
        self.home = os.path.join(self.base, "lash_home")
        self.work = os.path.join(self.base, "work")
        os.makedirs(os.path.join(self.home, "profiles"))
        os.makedirs(self.work)
        with open(os.path.join(self.home, "profiles", "audited.profile"), "w") as f:
            f.write(profile_text(monitoring, probe))
        with open(os.path.join(self.work, "mine"), "w") as f:
            f.write("mine-content\n")
        self.log = os.path.join(self.home, "audit.log")
        self.mounted = False

    def env(self):
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": self.base, "LASH_HOME": self.home,
                "LC_ALL": "C", "TZ": "UTC"}

    def log_text(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def close(self):
        if self.mounted:
            subprocess.run(["umount", "-l", self.home], check=False)
        shutil.rmtree(self.base, ignore_errors=True)


# The session: wait for a line, then a denial, then a program, a redirection and an
# append, each printing its status.
SCRIPT = ("echo ready; read go; {before}" + FORBIDDEN + " 2>/dev/null; "
          "cat mine; echo cat:$?; echo new > made; echo redirect:$?; "
          "echo more >> mine; echo append:$?; echo end")


def run_session(lash, tree, breaker, before=""):
    """Runs SCRIPT; BREAKER(pid) is called once lash waits on stdin."""
    p = subprocess.Popen([lash, "-p", "audited", "-c", SCRIPT.format(before=before)],
                         cwd=tree.work, env=tree.env(), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline()
    if line.strip() != b"ready":
        p.kill()
        out, err = p.communicate()
        return None, "no ready: %r %r" % (line + out, err)
    if breaker:
        breaker(p.pid)
    try:
        out, err = p.communicate(b"go\n", timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return (p.returncode, out.decode(errors="replace"), err.decode(errors="replace")), None


def set_fsize_zero(pid):
    # what a child could do before the filter refused it: lash's own hard limit
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, 0))


def expect_refused(name, res, tree, cause):
    rc, out, err = res
    fails = []
    if "mine-content" in out:
        fails.append("cat ran")
    for what in ("cat:126", "redirect:126", "append:126", "end"):
        if what not in out:
            fails.append("no %s in output" % what)
    if os.path.exists(os.path.join(tree.work, "made")):
        fails.append("the redirection made its file")
    with open(os.path.join(tree.work, "mine")) as f:
        if "more" in f.read():
            fails.append("the append wrote")
    if "Problem:" not in err or cause not in err:
        fails.append("no Problem naming %r" % cause)
    if "audit log cannot be written" not in err:
        fails.append("no 'audit log cannot be written' in the refusal")
    return fails


def expect_twin(name, res, tree, needle):
    rc, out, err = res
    fails = []
    for what in ("mine-content", "cat:0", "redirect:0", "append:0", "end"):
        if what not in out:
            fails.append("twin: no %s in output" % what)
    if needle not in tree.log_text():
        fails.append("twin: %r not in the audit log" % needle)
    if "audit log cannot be written" in err:
        fails.append("twin: refused for the audit log")
    return fails


def case_fsize(args):
    fails = []
    tree = Tree()
    try:
        res, why = run_session(args.lash, tree, set_fsize_zero)
        if why:
            return [why]
        fails += expect_refused("fsize", res, tree, "File too large")
        if FORBIDDEN in tree.log_text():
            fails.append("a record was written past RLIMIT_FSIZE 0")
    finally:
        tree.close()
    tree = Tree()
    try:
        res, why = run_session(args.lash, tree, None)
        if why:
            return [why]
        fails += expect_twin("fsize", res, tree, FORBIDDEN)
    finally:
        tree.close()
    return fails


def can_mount():
    if os.getuid() != 0:
        return "not root"
    d = tempfile.mkdtemp(prefix="lash-auditfc-mnt.")
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "cannot mount a tmpfs here: " + r.stderr.strip()
        subprocess.run(["umount", d], check=False)
        return None
    finally:
        os.rmdir(d)


def fill(path):
    """Writes to PATH until the file system is full."""
    try:
        with open(path, "wb") as f:
            while True:
                f.write(b"x" * 4096)
                f.flush()
    except OSError:
        pass


def case_full(args):
    why = can_mount()
    if why:
        return SKIP, why
    fails = []
    for broken in (True, False):
        tree = Tree(monitoring=True)
        try:
            # LASH_HOME on a tiny tmpfs, profiles copied in; the filler file takes the
            # rest once the session has opened its log.
            saved = os.path.join(tree.base, "profiles.saved")
            shutil.copytree(os.path.join(tree.home, "profiles"), saved)
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", tree.home],
                           check=True)
            tree.mounted = True
            shutil.copytree(saved, os.path.join(tree.home, "profiles"))
            filler = os.path.join(tree.home, "filler")
            res, why = run_session(args.lash, tree, (lambda pid: fill(filler)) if broken else None)
            if why:
                return 1, why
            if broken:
                fails += expect_refused("full", res, tree, "No space left on device")
            else:
                fails += expect_twin("full", res, tree, FORBIDDEN)
        finally:
            tree.close()
    return (1 if fails else 0), "; ".join(fails)


def case_from_child(args):
    """The probe (allowlisted) lowers RLIMIT_FSIZE of its parent, lash: refused; the
    denial that follows is in the log and the session goes on. Twin: the same
    prlimit on the probe itself (pid 0) works."""
    fails = []
    tree = Tree(probe=args.probe)
    try:
        q = args.probe
        res, why = run_session(args.lash, tree, None,
                               before=f"{q} prlimit ppid fsize 0 0; {q} prlimit ppid cpu 1 1; "
                                      f"{q} prlimit self fsize 0 0; ")
        if why:
            return [why]
        rc, out, err = res
        toks = [l for l in out.splitlines() if l in ("ok", "EPERM")]
        if toks != ["EPERM", "EPERM", "ok"]:
            fails.append("prlimit tokens %r, want EPERM EPERM ok" % toks)
        fails += expect_twin("from-child", res, tree, FORBIDDEN)
    finally:
        tree.close()
    return fails


def reexec_as_nobody(args):
    if os.getuid() != 0:
        print("SKIP: not root, the main run is already unprivileged")
        return SKIP
    setpriv = shutil.which("setpriv")
    if not setpriv:
        print("SKIP: setpriv (util-linux) missing")
        return SKIP
    # The caller's python3 may live where uid 65534 cannot read it (pyenv under /root).
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    argv = ["--lash", os.path.abspath(args.lash)]
    if args.probe:
        argv += ["--probe", os.path.abspath(args.probe)]
    sys.stdout.flush()
    os.chdir("/tmp")
    os.environ.pop("TMPDIR", None)
    os.execv(setpriv, [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", py,
                       os.path.abspath(__file__)] + argv)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    ap.add_argument("--probe", default="")
    ap.add_argument("--as-nobody", action="store_true")
    args = ap.parse_args()
    if args.as_nobody:
        return reexec_as_nobody(args)
    args.lash = os.path.abspath(args.lash)
    failed = 0
    f = case_fsize(args)
    print("fsize: " + ("FAIL " + "; ".join(f) if f else "ok"))
    failed += bool(f)
    rc, msg = case_full(args)
    print("full: " + {0: "ok", 1: "FAIL " + msg, SKIP: "skipped (" + msg + ")"}[rc])
    failed += rc == 1
    if args.probe:
        args.probe = os.path.abspath(args.probe)
        f = case_from_child(args)
        print("from-child: " + ("FAIL " + "; ".join(f) if f else "ok"))
        failed += bool(f)
    else:
        print("from-child: skipped (no --probe)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
