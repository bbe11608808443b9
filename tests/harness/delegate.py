#!/usr/bin/env python3
"""Runs a test again as an unprivileged user, with cgroups delegated to that user.

    delegate.py [--uid N] -- PROGRAM ARGS...     (root only; else exit 77 with a reason)

What a system does for a user session (systemd's Delegate=): root makes a sub-cgroup
under this process's cgroup in cgroup v2 and in the v1 pids and memory hierarchies
(hybrid hosts), chowns it (and its cgroup.procs, cgroup.threads, cgroup.subtree_control
or tasks) to the user, and moves this process into it before dropping to the user. So
the session cgroup, the cgroup kill at exit and the watchdog's SIGKILL run, and make
assertions, as a plain user too. A root helper outside the cgroups removes them when
the run is over. LASH_TEST_DELEGATED lists what was delegated (the harness's own
knowledge, for skips: never the product's probe).

The module's functions are also used by escape_matrix.py --as-nobody.
"""

import os
import select
import shutil
import sys
import time

SKIP = 77


def mounts():
    """(type, mount point, super options) of every cgroup mount."""
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            parts = line.split()
            if "-" not in parts:
                continue
            i = parts.index("-")
            if parts[i + 1] in ("cgroup", "cgroup2"):
                out.append((parts[i + 1], parts[4], parts[i + 3] if len(parts) > i + 3 else ""))
    return out


def current(controller):
    """This process's cgroup path for a v1 controller, or v2 ("" controller)."""
    with open("/proc/self/cgroup") as f:
        for line in f:
            num, ctrls, path = line.rstrip("\n").split(":", 2)
            if controller == "" and num == "0" and ctrls == "":
                return path
            if controller and controller in ctrls.split(","):
                return path
    return None


def delegation_targets(tag):
    """[(kind, directory to make, control files to chown)] for v2, v1 pids, v1 memory."""
    out = []
    for typ, point, opts in mounts():
        if typ == "cgroup2":
            kind, files = "v2", ("cgroup.procs", "cgroup.threads", "cgroup.subtree_control")
            cur = current("")
        else:
            names = [n for n in ("pids", "memory") if n in opts.split(",")]
            if not names:
                continue
            kind, files = "v1-" + names[0], ("cgroup.procs", "tasks")
            cur = current(names[0])
        if cur is None or any(k == kind for k, _, _ in out):
            continue
        base = point + ("" if cur == "/" else cur)
        out.append((kind, os.path.join(base, tag), files))
    return out


def wait_for_exit(pid, pidfd):
    """Returns once PID (this process's parent) has exited: PIDFD, opened before the
    fork, turns readable; without one (Linux < 5.3), once this process is reparented."""
    if pidfd is None:
        while os.getppid() == pid:
            time.sleep(0.2)
        return
    select.select([pidfd], [], [])
    os.close(pidfd)


def delegate(uid, tag):
    """Makes and chowns the cgroups, moves this process in, and starts the remover.
    Returns the kinds delegated (e.g. ["v2", "v1-pids"])."""
    made = []
    for kind, d, files in delegation_targets(tag):
        try:
            os.mkdir(d)
            os.chown(d, uid, uid)
            for name in files:
                p = os.path.join(d, name)
                if os.path.exists(p):
                    os.chown(p, uid, uid)
        except OSError as e:
            print("delegate: %s %s: %s" % (kind, d, e), file=sys.stderr)
            continue
        made.append((kind, d))
    if not made:
        return []
    # The remover waits for this process (the run) to exit, by a pidfd, never for EOF
    # on a pipe: a run that closes or dup2()s over fds it does not know of (the escape
    # matrix puts files on fds 4, 5 and 7 for its rows) would end the wait early, and
    # the remover would then rmdir each session cgroup lash had made but not yet joined
    # (lash refused those sessions: "cannot join the session cgroup").
    run = os.getpid()
    try:
        pidfd = os.pidfd_open(run)  # before the fork: it names this process, whatever happens
    except (AttributeError, OSError):
        pidfd = None
    if os.fork() == 0:  # the remover: root, outside the cgroups, in a session of its own
        os.setsid()
        wait_for_exit(run, pidfd)
        # watchdogs of the run's sessions may take seconds to finish: up to a minute
        for _ in range(600):
            left = False
            for _kind, d in made:
                if not os.path.isdir(d):
                    continue
                try:
                    subs = sorted((e.path for e in os.scandir(d) if e.is_dir()), reverse=True)
                    for sub in subs:
                        os.rmdir(sub)
                    os.rmdir(d)
                except OSError:
                    left = True
            if not left:
                break
            time.sleep(0.1)
        os._exit(0)
    if pidfd is not None:
        os.close(pidfd)
    kinds = []
    for kind, d in made:
        try:
            with open(os.path.join(d, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            kinds.append(kind)
        except OSError as e:
            print("delegate: cannot join %s: %s" % (d, e), file=sys.stderr)
    os.environ["LASH_TEST_DELEGATED"] = ",".join(kinds)
    return kinds


def main(argv):
    uid = 65534
    if argv[:1] == ["--uid"]:
        uid, argv = int(argv[1]), argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        print("usage: delegate.py [--uid N] -- PROGRAM ARGS...", file=sys.stderr)
        return 2
    if os.getuid() != 0:
        print("SKIP: not root, the main run is already unprivileged")
        return SKIP
    setpriv = shutil.which("setpriv")
    if not setpriv:
        print("SKIP: setpriv (util-linux) missing")
        return SKIP
    prog = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
    os.chdir("/tmp")
    os.environ.pop("TMPDIR", None)
    kinds = delegate(uid, "lash-test-%d-%d" % (uid, os.getpid()))
    print("delegated to uid %d: %s" % (uid, ", ".join(kinds) or "nothing (no cgroups here)"),
          file=sys.stderr)
    sys.stderr.flush()
    os.execv(setpriv, [setpriv, "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups",
                       prog] + argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
