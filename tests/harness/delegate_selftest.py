#!/usr/bin/env python3
"""The harness's delegation (delegate.py) leaves a run's cgroups alone while it runs.

    delegate_selftest.py        (root; else exit 77 with the reason)

Its remover once waited for EOF on a pipe the run inherited: a run that closed that fd
(the escape matrix dup2()s files onto fds 4, 5 and 7) let the remover loose while lash
sessions were still starting, and it removed each session cgroup lash had made and
not yet joined. Here the delegated run closes every fd above 2, makes a sub-cgroup as
lash would, and checks that it still exists a while later; then that the remover
removes everything once the run is over.
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

CHILD = r"""
import os, sys, time
os.closerange(3, 4096)
made = []
for d in sys.argv[1:]:
    sub = os.path.join(d, "lash-selftest-session")
    os.mkdir(sub)
    made.append(sub)
time.sleep(float(os.environ.get("HOLD", "2")))
gone = [m for m in made if not os.path.isdir(m)]
print("gone: " + " ".join(gone) if gone else "kept %d" % len(made))
"""


def main():
    if os.getuid() != 0:
        print("SKIP: not root (delegating a cgroup needs root)")
        return SKIP
    sys.path.insert(0, HERE)
    import delegate  # noqa: E402
    tag = "lash-delegate-selftest-%d" % os.getpid()
    dirs = [d for _kind, d, _files in delegate.delegation_targets(tag)]
    if not dirs:
        print("SKIP: no cgroup hierarchy to delegate here")
        return SKIP
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the run: delegated, then uid 65534, then it closes what it inherited
        os.close(r)
        os.dup2(w, 1)
        kinds = delegate.delegate(65534, tag)
        if not kinds:
            os._exit(3)
        mine = [d for d in dirs if os.path.isdir(d)]
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
        # the caller's python3 may live where uid 65534 cannot read it (pyenv under /root)
        py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        os.execv(py, [py, "-c", CHILD] + mine)
    os.close(w)
    out = b""
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        out += chunk
    os.close(r)
    _, ws = os.waitpid(pid, 0)
    text = out.decode().strip()
    print("run: " + text)
    ok = os.WIFEXITED(ws) and os.WEXITSTATUS(ws) == 0 and text.startswith("kept ")
    if not ok:
        print("FAIL: a session cgroup of the run was removed while the run went on")
    # and once the run is over, everything goes (the remover retries for a minute)
    end = time.monotonic() + 30
    while time.monotonic() < end and any(os.path.isdir(d) for d in dirs):
        time.sleep(0.1)
    left = [d for d in dirs if os.path.isdir(d)]
    if left:
        print("FAIL: the remover left " + ", ".join(left))
        ok = False
    else:
        print("removed after the run: %d directories" % len(dirs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
