#!/usr/bin/env python3
"""Many short sandboxed sessions at once, as uid 65534 with delegated cgroups: all must run.

    session_stress.py --lash LASH [--sessions N] [--parallel K] [--burners B] [--as-root]

Each session is `lash -p stress -c 'cat FILE'` under a profile with process and memory
limits, so lash makes its session cgroups (v2, or the v1 pids and memory hierarchies of
a hybrid host) inside the cgroup this harness delegated to uid 65534, joins them and
removes them at exit (its watchdog does). K sessions run at a time, beside B CPU-bound
processes, until N have run. A session that does not print the file's content fails
the run, with its stderr: a refused session ("cannot join the session cgroup") is a
failure here, never retried.

Exit 0 when all N ran, 1 otherwise, 77 (SKIP, with the reason) when not root or when
setpriv is missing. --as-root runs the sessions as root, without delegation.
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
MARK = "stress-content-51d0"

PROFILE = """[profile]
description = session_stress: an allowlist and limits, so every session makes cgroups

[process]
spawn_any = false
spawn_allowlist = cat, sleep

[filesystem]
include_workdir = true
tmpdir = session
system_paths = true

[resources]
max_memory = 256M
max_processes = 32
max_cpu_seconds = 30
"""


def children_main(args):
    base = tempfile.mkdtemp(prefix="lash-stress-", dir="/tmp")
    work = os.path.join(base, "work")  # the writable workdir; the profiles and etc outside it
    for d in ("home/profiles", "etc", "work"):
        os.makedirs(os.path.join(base, d))
    with open(os.path.join(base, "home/profiles/stress.profile"), "w") as f:
        f.write(PROFILE)
    with open(os.path.join(work, "file"), "w") as f:
        f.write(MARK + "\n")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": base, "LASH_HOME": os.path.join(base, "home"),
           "LASH_TEST_SYSTEM_DIR": os.path.join(base, "etc"), "LC_ALL": "C", "PWD": work}
    cmd = "cat file" + ("; sleep %s" % args.hold if args.hold else "")
    burners = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.burners)]
    running, failures, done = [], [], 0
    t0 = time.monotonic()
    try:
        while done < args.sessions or running:
            while len(running) < args.parallel and done + len(running) < args.sessions:
                p = subprocess.Popen([args.lash, "-p", "stress", "-c", cmd], cwd=work, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                running.append(p)
            p = running.pop(0)
            out, err = p.communicate(timeout=300)
            done += 1
            if p.returncode != 0 or out.decode().strip() != MARK:
                failures.append((p.pid, p.returncode, out.decode(errors="replace"), err.decode(errors="replace")))
    finally:
        for b in burners:
            b.kill()
            b.wait()
        shutil.rmtree(base, ignore_errors=True)
    secs = time.monotonic() - t0
    for pid, rc, out, err in failures[:10]:
        print("FAIL lash pid %d: rc=%s stdout=%r\n    stderr: %s" % (pid, rc, out[-200:],
                                                                  err.strip()[-800:].replace("\n", "\n    ")))
    print("%d of %d sessions ran (%d at a time, %d CPU burners, uid %d, %.0f s)"
          % (done - len(failures), done, args.parallel, args.burners, os.getuid(), secs))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lash", required=True)
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--parallel", type=int, default=16)
    ap.add_argument("--burners", type=int, default=2)
    ap.add_argument("--hold", default="", help="seconds each session sleeps after its cat")
    ap.add_argument("--as-root", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.lash = os.path.abspath(args.lash)
    if args.child or args.as_root:
        return children_main(args)
    if os.getuid() != 0:
        print("SKIP: not root (uid 65534 and its delegated cgroup need root to set up)")
        return SKIP
    setpriv = shutil.which("setpriv")
    if not setpriv:
        print("SKIP: setpriv (util-linux) missing")
        return SKIP
    sys.path.insert(0, HERE)
    import delegate  # noqa: E402
    os.chdir("/tmp")
    kinds = delegate.delegate(65534, "lash-stress-%d" % os.getpid())
    print("delegated to uid 65534: %s" % (", ".join(kinds) or "nothing"), flush=True)
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    os.execv(setpriv, [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", py,
                       os.path.abspath(__file__), "--child", "--lash", args.lash,
                       "--sessions", str(args.sessions), "--parallel", str(args.parallel),
                       "--burners", str(args.burners), "--hold", args.hold])


if __name__ == "__main__":
    sys.exit(main())
