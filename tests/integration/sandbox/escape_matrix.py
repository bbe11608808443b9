#!/usr/bin/env python3
"""The escape matrix: over 100 sandbox escape attempts through the real lash binary.

Each row is one attempt. It runs twice, each time in a fresh temporary tree (a
workspace, a directory "outside" the grants holding a secret, HOME, LASH_HOME):

  * under the restricting profile `escape` (written below; an allowlist, the workspace
    writable, protect, resource limits, denied variables, no network ports but 443),
    where the attempt must be refused, and
  * under the `default` profile (the twin), where the very same command must succeed;
    a row whose twin does not succeed cannot detect an escape and fails the test.

An attempt counts as let through when its own token says so ("ok"), when the secret's
content (or a hidden name, a variable's value) shows up in the output, when anything
outside the grants changed (the outside directory, HOME, /etc test file, /dev/shm,
the protected .git paths), when git run afterwards outside the sandbox would use
planted hooks or fsmonitor, or when a process it targeted or left behind is in the
wrong state. Every command first prints a marker (a run without it is "not run", a
failure), and a control step first checks that every allowed tool and builtin works
under the restricting policy, so no refusal can come from a tool that cannot run.

Most rows run the attempt from an allowlisted program (lash-probe, sh, python3), which
the shell's policy layer does not inspect: they test the kernel layer, as a script
that skips the policy layer would. Rows marked "policy" go through the shell.

  escape_matrix.py --lash build/lash --probe build/tests/helpers/lash-probe
      [--runner lash|bwrap|firejail] [--only ID,ID] [--json FILE] [--strict] [-v]
      [--as-nobody]     (as root: run everything again as uid 65534 through setpriv)

Exit: 0 nothing let through, 1 something let through, a broken row or a failed
control, 77 skipped (Landlock ABI < 6 here, or --as-nobody when not root;
LASH_MUST_ENFORCE=1 turns the kernel case into 1). Rows lash says it cannot enforce on
this machine (no writable cgroup v2 for the user) are "degraded": shown, not counted,
failures under LASH_MUST_ENFORCE=1. Other runners (bwrap, firejail) are informational:
tests/bench/escape_peers.sh.
"""

import argparse
import ctypes
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import termios
import time

SKIP = 77
SECRET_MARK = "SECRET-b7c41e"      # content of the secret files
HIDDEN_NAME = "hidden-name-5d2a90"  # a file name only a directory read reveals
ENV_MARK = "envsecret-3f9e1c"       # value of a denied variable in lash's environment
CMD_MARK = "cmdline-mark-8e07d4"    # an argument of lash itself
OTHER_MARK = "other-proc-41c3aa"    # environment value of a process outside
LIMITS = {"max_memory": "256M", "max_cpu_seconds": 1, "max_file_size": "1M",
          "max_processes": 32, "max_open_files": 64}
NO_CGROUP = "no writable cgroup v2"
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else \
    os.path.realpath(sys.executable)
LDSO = "/lib64/ld-linux-x86-64.so.2"
FORBIDDEN = "/usr/bin/id"           # a program on no allowlist
# a program on no allowlist outside the bin directories: a copy of git, whose
# /usr/bin/git is allowlisted
FORBIDDEN_ELSEWHERE = "/usr/lib/git-core/git"
ALLOWED_PORT = 443
# the programs of the allowlist besides the probe (the peers get the same list)
ALLOW_BINS = ["sh", "dash", "bash", "python3", "cat", "cp", "mv", "rm", "ln", "mkdir",
              "touch", "chmod", "sleep", "git", "install"]


def bin_allowlist_binds():
    """bwrap arguments that empty /usr/bin and /usr/sbin and bind back the allowlisted
    programs (with their symlink chains): the closest bwrap comes to an allowlist."""
    a = ["--tmpfs", "/usr/bin", "--tmpfs", "/usr/sbin"]
    seen = set()
    for n in ALLOW_BINS:
        p = "/usr/bin/" + n
        for _ in range(8):
            if not os.path.islink(p):
                break
            t = os.readlink(p)
            if p not in seen:
                a += ["--symlink", t, p]
                seen.add(p)
            p = os.path.normpath(os.path.join(os.path.dirname(p), t))
        if os.path.exists(p) and p not in seen:
            a += ["--ro-bind", p, p]
            seen.add(p)
    return a


def q(s):
    return shlex.quote(str(s))


# --------------------------------------------------------------------------- context

class Ctx:
    """One fresh tree for one run of one row."""

    def __init__(self, args, runner, limits=None):
        self.args = args
        self.runner = runner
        self.probe = args.probe
        self.base = tempfile.mkdtemp(prefix="lash-escape.")
        os.chmod(self.base, 0o755)
        for sub in ("work", "outside", "home", "lash_home/profiles", "tmp",
                    "etc_lash", "outside/secretdir"):
            os.makedirs(os.path.join(self.base, sub), exist_ok=True)
        self.work = os.path.join(self.base, "work")
        self.outside = os.path.join(self.base, "outside")
        self.home = os.path.join(self.base, "home")
        self.secret = os.path.join(self.outside, "secret")
        self.secretdir = os.path.join(self.outside, "secretdir")
        write(self.secret, "echo %s\n" % SECRET_MARK, 0o644)
        write(os.path.join(self.secretdir, HIDDEN_NAME), "x\n", 0o644)
        write(os.path.join(self.home, ".profile"), "# user's login script\n", 0o644)
        write(os.path.join(self.work, "mine"), "mine\n", 0o644)
        make_git_dir(self.work)
        write_profile(os.path.join(self.base, "lash_home/profiles/escape.profile"),
                      self.probe, limits)
        # by name: a .git moved away and rebuilt shows as a change of these paths
        self.watched = [self.outside, self.home, os.path.join(self.work, ".git/hooks"),
                        os.path.join(self.work, ".git/config")]
        self.procs = []       # Popen objects to kill at teardown
        self.socks = []       # listening sockets to close
        self.marks = []       # cmdline markers of processes to kill at teardown
        self.extra_files = []  # files outside the tree to remove at teardown
        self.ipc = []         # (kind, id) of SysV IPC objects made outside, removed at teardown
        self.pass_fds = ()
        self.is_twin = False
        self.restore = []     # (path, text) written back at teardown if changed
        self.env_extra = {}
        self.tty = None
        self.sleeper = None
        self.port = None
        self.snap = None

    # processes and sockets outside the sandbox, started before the runner
    def start_sleeper(self):
        env = {"PATH": "/usr/bin:/bin", "OTHER_SECRET": OTHER_MARK}
        # it holds the secret open as fd 5
        fd = os.open(self.secret, os.O_RDONLY)
        if fd != 5:
            os.dup2(fd, 5)
            os.close(fd)
        try:
            self.sleeper = subprocess.Popen(
                ["sleep-" + OTHER_MARK, "300"], executable="/usr/bin/sleep",
                cwd=self.outside, env=env, stdin=subprocess.DEVNULL, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(5,))
        finally:
            os.close(5)
        self.procs.append(self.sleeper)
        # wait until it is sleep (not yet python's fork)
        for _ in range(200):
            try:
                with open("/proc/%d/cmdline" % self.sleeper.pid, "rb") as f:
                    if OTHER_MARK.encode() in f.read():
                        break
            except OSError:
                pass
            time.sleep(0.005)
        return self.sleeper.pid

    def listen_tcp(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        self.socks.append(s)
        self.port = s.getsockname()[1]
        return self.port

    def listen_unix(self, path=None, abstract=None):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if abstract:
            s.bind("\0" + abstract)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            s.bind(path)
        s.listen(16)
        self.socks.append(s)

    def snapshot(self):
        return snapshot(self.watched + self.extra_files)

    def teardown(self):
        for path, text in self.restore:
            try:
                with open(path) as f:
                    now = f.read().strip()
                if now != text:
                    with open(path, "w") as f:
                        f.write(text + "\n")
                    print("escape_matrix: %s was changed to %r, restored to %r"
                          % (path, now, text))
            except OSError as e:
                print("escape_matrix: cannot check %s: %s" % (path, e))
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # started with a session of its own
            except OSError:
                pass
            try:
                p.kill()
                p.wait(timeout=5)
            except Exception:
                pass
        for m in self.marks:
            for pid in find_marked(m):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for s in self.socks:
            s.close()
        if self.tty is not None:
            for fd in self.tty:
                try:
                    os.close(fd)
                except OSError:
                    pass
        for fd in self.pass_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        for f in self.extra_files:
            try:
                os.unlink(f)
            except OSError:
                pass
        for kind, ident in self.ipc:
            ipc_remove(kind, ident)
        for dirpath, dirnames, _ in os.walk(self.base):
            for d in dirnames:
                if os.path.islink(os.path.join(dirpath, d)):
                    continue  # chmod would follow it out of the tree
                try:
                    os.chmod(os.path.join(dirpath, d), 0o700)
                except OSError:
                    pass
        shutil.rmtree(self.base, ignore_errors=True)


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def make_git_dir(work):
    """A minimal repository: enough for git and for protect (.git/hooks, .git/config)."""
    g = os.path.join(work, ".git")
    for d in ("hooks", "objects/info", "objects/pack", "refs/heads", "refs/tags", "info"):
        os.makedirs(os.path.join(g, d), exist_ok=True)
    write(os.path.join(g, "HEAD"), "ref: refs/heads/main\n")
    write(os.path.join(g, "config"),
          "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n")
    write(os.path.join(g, "hooks", "pre-commit.sample"), "#!/bin/sh\nexit 0\n", 0o755)


def write_profile(path, probe, limits=None):
    lim = dict(LIMITS, **(limits or {}))
    res = "".join("%s = %s\n" % (k, v) for k, v in lim.items() if v is not None)
    text = f"""# The escape matrix's restricting profile (tests/integration/sandbox).
[profile]
description = escape matrix: allowlist, workspace writable, protect, limits

[process]
spawn_any = false
spawn_allowlist = {probe},
    {", ".join(ALLOW_BINS[:3])}, {PY}, {", ".join(ALLOW_BINS[4:])}

[filesystem]
include_workdir = true
tmpdir = session
system_paths = true

[network]
allow_ports = {ALLOWED_PORT}
block_all_others = true

[resources]
{res}
[environment]
deny = LD_*, BASH_ENV, ENV, ESCAPE_SECRET
mutation = true

[capabilities]
file_redirect = true
"""
    write(path, text)


def snapshot(paths):
    """Names, types, modes, times, sizes, contents and user xattrs under paths."""
    out = {}

    def one(p):
        try:
            st = os.lstat(p)
        except OSError:
            out[p] = None
            return
        entry = [stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_mtime_ns,
                 st.st_size]
        if stat.S_ISREG(st.st_mode):
            try:
                with open(p, "rb") as f:
                    entry.append(hashlib.sha256(f.read()).hexdigest())
            except OSError as e:
                entry.append("unreadable:%d" % e.errno)
        elif stat.S_ISLNK(st.st_mode):
            entry.append(os.readlink(p))
        try:
            entry.append(sorted(os.listxattr(p, follow_symlinks=False)))
        except OSError:
            pass
        out[p] = entry

    for root in paths:
        one(root)
        if os.path.isdir(root) and not os.path.islink(root):
            for dirpath, dirnames, filenames in os.walk(root):
                for n in dirnames + filenames:
                    one(os.path.join(dirpath, n))
    return out


def diff_snap(a, b):
    changed = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            changed.append(k)
    return changed


def session_of(pid):
    """The session id of PID: the 4th field after the command name in /proc/PID/stat
    (state, ppid, pgrp, session)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[3])
    except (OSError, IndexError, ValueError):
        return None


def cpu_seconds_of(pid):
    """utime + stime of PID (lash itself), or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def find_marked(mark):
    pids = []
    m = mark.encode()
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                if m in f.read():
                    pids.append(int(d))
        except OSError:
            pass
    return pids


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return False


def measure_slowness():
    """How much slower than an idle machine this one runs now: the wall time a short
    CPU-bound loop takes over the CPU time it gets (1.0 idle, about 2 with two busy
    processes per core), at least 1. Every wait below is scaled by it, so a loaded
    machine gets longer budgets instead of failing a row (LASH_TEST_SLOWNESS sets it)."""
    forced = os.environ.get("LASH_TEST_SLOWNESS")
    if forced:
        return max(1.0, float(forced))
    best = None
    for _ in range(3):
        w0, c0 = time.monotonic(), time.process_time()
        n = 0
        while time.process_time() - c0 < 0.05:
            n += 1
        ratio = (time.monotonic() - w0) / max(time.process_time() - c0, 1e-3)
        best = ratio if best is None else min(best, ratio)
    return max(1.0, min(best, 10.0))


SLOWNESS = 1.0  # set in main()


def scaled(seconds):
    return seconds * SLOWNESS


def wait_until(pred, seconds):
    """Polls PRED until it holds (an event), for at most SECONDS on an idle machine
    (scaled by SLOWNESS)."""
    end = time.monotonic() + scaled(seconds)
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return pred()


# --------------------------------------------------------------------------- runners

class Runner:
    name = "?"

    def __init__(self, args):
        self.args = args

    def env(self, ctx):
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": ctx.home,
               "LASH_HOME": os.path.join(ctx.base, "lash_home"),
               "TMPDIR": os.path.join(ctx.base, "tmp"),
               "LASH_TEST_SYSTEM_DIR": os.path.join(ctx.base, "etc_lash"),
               "PWD": ctx.work, "LC_ALL": "C", "LANG": "C", "TZ": "UTC",
               "USER": os.environ.get("USER", "root"),
               "ESCAPE_SECRET": ENV_MARK}
        if "TERM" in os.environ:
            env["TERM"] = os.environ["TERM"]
        env.update(ctx.env_extra)
        return env

    def twin_argv(self, ctx, cmd):
        return [self.args.lash, "-p", "default", "-c", cmd, "lash-escape", CMD_MARK]


class LashRunner(Runner):
    name = "lash"

    def argv(self, ctx, cmd):
        return [self.args.lash, "-p", "escape", "-c", cmd, "lash-escape", CMD_MARK]


class BwrapRunner(Runner):
    """bubblewrap with the closest policy it can express: the system read-only with
    only the allowlisted programs in /usr/bin (none in /usr/sbin), the workspace and
    the probe bound, .git/hooks and .git/config read-only, a fresh
    /tmp, every namespace unshared, no nested user namespaces, a new session
    (TIOCSTI), no capabilities, the denied variables unset. It has no resource
    limits; programs outside /usr/bin and /usr/sbin stay runnable."""
    name = "bwrap"

    def argv(self, ctx, cmd):
        a = ["bwrap", "--ro-bind", "/usr", "/usr"] + bin_allowlist_binds() + \
            ["--ro-bind", "/etc", "/etc"]
        for link in ("bin", "lib", "lib64", "sbin"):
            if os.path.islink("/" + link):
                a += ["--symlink", os.readlink("/" + link), "/" + link]
            elif os.path.isdir("/" + link):
                a += ["--ro-bind", "/" + link, "/" + link]
        a += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
              "--bind", ctx.work, ctx.work,
              "--ro-bind", self.args.probe, self.args.probe,
              # protect, as bwrap can say it
              "--ro-bind", ctx.work + "/.git/hooks", ctx.work + "/.git/hooks",
              "--ro-bind", ctx.work + "/.git/config", ctx.work + "/.git/config",
              "--chdir", ctx.work,
              "--unshare-all", "--unshare-user", "--disable-userns",
              "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        for v in ("LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "ENV",
                  "ESCAPE_SECRET"):
            a += ["--unsetenv", v]
        return a + ["/bin/sh", "-c", cmd, "lash-escape", CMD_MARK]


class FirejailRunner(Runner):
    """firejail with the closest policy it can express: only the workspace visible
    under /tmp, everything read-only but the workspace, .git/hooks and .git/config
    read-only, the workspace noexec, its default seccomp filter, no capabilities, no
    new privileges, no network, the same rlimits, the denied variables removed, and
    --private-bin with the allowlisted programs (its allowlist for the bin
    directories; programs elsewhere stay runnable)."""
    name = "firejail"

    def argv(self, ctx, cmd):
        lim = LIMITS
        a = ["firejail", "--noprofile", "--quiet", "--deterministic-exit-code",
             "--whitelist=" + ctx.work, "--read-only=/", "--read-write=" + ctx.work,
             "--noexec=" + ctx.work, "--read-only=" + ctx.work + "/.git/hooks",
             "--read-only=" + ctx.work + "/.git/config", "--private-dev", "--net=none",
             "--seccomp", "--caps.drop=all", "--nonewprivs", "--nogroups",
             "--private-bin=" + ",".join(ALLOW_BINS + [os.path.basename(
                 os.path.realpath(PY))]),
             "--rlimit-as=%d" % (256 << 20), "--rlimit-cpu=%d" % lim["max_cpu_seconds"],
             "--rlimit-fsize=%d" % (1 << 20), "--rlimit-nofile=%d" % lim["max_open_files"],
             "--rlimit-nproc=%d" % lim["max_processes"]]
        if os.getuid() != 0:
            a.append("--noroot")
        for v in ("LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "ENV",
                  "ESCAPE_SECRET"):
            a.append("--rmenv=" + v)
        return a + ["--", "/bin/sh", "-c", cmd, "lash-escape", CMD_MARK]


RUNNERS = {"lash": LashRunner, "bwrap": BwrapRunner, "firejail": FirejailRunner}


# --------------------------------------------------------------------------- running

ALIVE = "@escape-matrix-alive@"  # printed first by every command: the runner ran it


class Res:
    def __init__(self, rc, out, err, ctx, before, extra=None):
        self.rc = rc
        self.alive = ALIVE in out
        out = "\n".join(l for l in out.splitlines() if l.strip() != ALIVE)
        self.out = out
        self.err = err
        self.ctx = ctx
        self.changed = diff_snap(before, ctx.snapshot())
        self.extra = extra or {}
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        self.token = lines[-1] if lines else ""
        if "Problem:" in err and self.token in ("", "refused"):
            self.token = "policy"
        if not self.token:
            self.token = "status:%s" % rc


def run_cmd(ctx, argv, env, timeout=20, stdin=None, preexec=None):
    try:
        p = subprocess.Popen(argv, cwd=ctx.work, env=env,
                             stdin=stdin if stdin is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             pass_fds=ctx.pass_fds, start_new_session=preexec is None,
                             preexec_fn=preexec)
    except OSError as e:
        return 127, "", "cannot start %s: %s" % (argv[0], e)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            p.kill()
        out, err = p.communicate()
        err += b"\n[timeout]"
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def default_run(row, ctx, argv, env):
    return run_cmd(ctx, argv, env), {}


# --------------------------------------------------------------------------- judges
# judge(res) -> (let_through: bool, token: str)

def by_token(res):
    return res.token == "ok", res.token


def leaked(*needles):
    def j(res):
        hit = any(n in res.out for n in needles)
        return hit, ("leaked" if hit else res.token)
    return j


def generic(row, res):
    """The row's own judge, then the universal checks."""
    through, tok = row.judge(res)
    if res.changed:
        through = True
        tok = "changed:" + os.path.relpath(res.changed[0], res.ctx.base)
    if SECRET_MARK in res.out:
        through = True
        tok = "leaked"
    return through, tok


def names_outside(res):
    """The outside directory (where a process outside works and holds files open)
    shows up in the output or in a message."""
    hit = res.ctx.outside in res.out or res.ctx.outside in res.err
    return hit, ("named" if hit else res.token)


def globbed_other_cwd(res):
    """Pathname expansion found the process outside's /proc/PID/cwd."""
    hit = res.token == "/proc/%d/cwd" % res.ctx.sleeper.pid
    return hit, ("globbed" if hit else "no-match")


def leaked_hidden(res):
    hit = HIDDEN_NAME in res.out
    return hit, ("leaked" if hit else res.token)


# SysV IPC made outside the session (python3 has no sysv_ipc here: libc by ctypes)
IPC_KEY_BASE = 0x4c450000
_libc = None


def libc():
    global _libc
    if _libc is None:
        import ctypes
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def ipc_setup(kind):
    def setup(ctx):
        key = IPC_KEY_BASE + (os.getpid() & 0xfff) * 16 + {"shm": 1, "sem": 2, "msg": 3}[kind] + \
            (8 if ctx.is_twin else 0)
        c = libc()
        flags = 0o1000 | 0o2000 | 0o600  # IPC_CREAT | IPC_EXCL | 0600
        ident = {"shm": lambda: c.shmget(key, 4096, flags), "sem": lambda: c.semget(key, 1, flags),
                 "msg": lambda: c.msgget(key, flags)}[kind]()
        if ident < 0:
            raise OSError("cannot create a SysV %s outside: errno %d" % (kind, __import__("ctypes").get_errno()))
        ctx.ipc.append((kind, ident))
        ctx.ipc_key = key
    return setup


def ipc_remove(kind, ident):
    c = libc()
    IPC_RMID = 0
    if kind == "shm":
        c.shmctl(ident, IPC_RMID, None)
    elif kind == "sem":
        c.semctl(ident, 0, IPC_RMID)
    else:
        c.msgctl(ident, IPC_RMID, None)


def proc_state(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"


def sleeper_touched_judge(res):
    """Let through when the process outside was killed or stopped."""
    def touched():
        return proc_state(res.ctx.sleeper.pid) in ("T", "t", "gone", "Z") or res.ctx.sleeper.poll() is not None
    hit = wait_until(touched, 2.0 if res.token == "ok" else 0.2)
    return hit, ("signalled" if hit else res.token)


# --------------------------------------------------------------------------- rows

# The layers a row can name as the one that must stop it (docs/security.md).
# "launch": what the launcher does to each child (inherited fds closed, lash
# non-dumpable, the environment built from the policy).
LAYERS = ("landlock", "seccomp", "namespace", "cgroup", "rlimit", "policy", "capabilities",
          "launch")
# How the rows' descriptive layer texts begin, and the layer each names.
LAYER_WORDS = {"landlock": "landlock", "broker": "landlock", "seccomp": "seccomp",
               "pidns": "namespace", "ipcns": "namespace", "mount": "namespace",
               "namespace": "namespace", "cgroup": "cgroup", "rlimit": "rlimit",
               "max_processes": "rlimit", "policy": "policy", "env": "policy",
               "shell": "policy", "capabilities": "capabilities", "dumpable": "launch",
               "launch": "launch", "close_range": "launch", "fd": "launch"}


def stopping_layer(text):
    import re
    word = re.split(r"[^a-z_]", text.strip().lower(), maxsplit=1)[0]
    if word not in LAYER_WORDS:
        raise ValueError("row layer %r names none of %s" % (text, ", ".join(LAYERS)))
    return LAYER_WORDS[word]


class Row:
    def __init__(self, rid, desc, layer, cmd, judge=by_token, setup=None, expect=(),
                 root=False, runner_fn=default_run, peers=True, accepted=None,
                 degraded=None, needs=None, stop=None, fences=None, limits=None,
                 nobody_expect=None):
        self.id = rid
        self.desc = desc
        self.layer = layer
        # the one layer that must stop the attempt, and the tokens it produces
        # (expect); a refusal with another token is by another layer, and fails under
        # --strict unless that layer is an accepted second fence (fences: {layer:
        # tokens}) of this row
        # (a documented limit, accepted, is stopped by no layer: "-")
        self.stop = stop or ("-" if accepted and layer == "-" else stopping_layer(layer))
        assert self.stop in LAYERS or accepted, (rid, self.stop)
        self.fences = {k: set(v) for k, v in (fences or {}).items()}
        for k in self.fences:
            assert k in LAYERS and k != self.stop, (rid, k)
        # limits of the restricting profile for this row (over LIMITS): a memory row
        # gets a CPU limit it cannot reach first, so the memory layer is what stops it
        self.limits = limits
        # as uid 65534 some layers answer with other tokens (e.g. no CAP_MKNOD)
        self.nobody_expect = set(nobody_expect) if nobody_expect else None
        self.cmd = cmd
        self.judge = judge
        self.setup = setup
        self.expect = set(expect)
        self.root = root
        self.runner_fn = runner_fn
        self.peers = peers
        self.accepted = accepted  # reason, for documented limits (not counted)
        # text of a lash warning saying the layer this row needs is missing here
        # (e.g. no writable cgroup for this user): the row is then "degraded", not
        # counted, and a failure under LASH_MUST_ENFORCE=1
        self.degraded = degraded
        # needs() -> None, or why this machine cannot run the twin (the row is skipped)
        self.needs = needs


def sleeper_setup(ctx):
    ctx.start_sleeper()


def sleeper_alive_judge(res):
    def dead_now():
        return not alive(res.ctx.sleeper.pid) or res.ctx.sleeper.poll() is not None
    # kill(2) returns before the target has died: a signal that was sent ("ok") gets
    # a moment to take effect, or the twin is judged too early (a flake seen once).
    dead = wait_until(dead_now, 2.0 if res.token == "ok" else 0)
    return dead, ("killed" if dead else res.token)


def victim_state(pid):
    """What the pid-addressed calls could change about a process outside: its limits,
    nice value, scheduling policy, CPUs and I/O priority."""
    st = {}
    try:
        with open("/proc/%d/limits" % pid) as f:
            st["limits"] = f.read()
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        st["nice"], st["policy"] = fields[16], fields[38]  # stat fields 19 and 41
        with open("/proc/%d/status" % pid) as f:
            st["cpus"] = [l for l in f if l.startswith("Cpus_allowed_list")]
    except (OSError, IndexError) as e:
        st["error"] = str(e)
    libc = ctypes.CDLL(None, use_errno=True)
    st["ioprio"] = libc.syscall(252, 1, pid)  # ioprio_get(IOPRIO_WHO_PROCESS, pid)
    return st


def victim_setup(ctx):
    ctx.start_sleeper()
    ctx.victim_before = victim_state(ctx.sleeper.pid)


def victim_judge(res):
    """Let through when the call said ok or the process outside changed."""
    after = victim_state(res.ctx.sleeper.pid)
    changed = [k for k in after if after[k] != res.ctx.victim_before.get(k)]
    if res.token == "ok" or changed:
        return True, res.token if res.token == "ok" else "changed:" + ",".join(changed)
    return False, res.token


def special_bits_in_workspace(ctx):
    """Files of the workspace with the setuid or setgid bit, or a file capability."""
    found = []
    for dirpath, dirnames, filenames in os.walk(ctx.work):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for n in filenames + dirnames:
            p = os.path.join(dirpath, n)
            try:
                st = os.lstat(p)
                if not stat.S_ISDIR(st.st_mode) and st.st_mode & (stat.S_ISUID | stat.S_ISGID):
                    found.append(n)
                elif not stat.S_ISLNK(st.st_mode) and "security.capability" in os.listxattr(p):
                    found.append(n + "(caps)")
            except OSError:
                pass
    return found


def setid_judge(res):
    """Let through when the attempt said ok or a setuid, setgid or capability file is
    left in the workspace."""
    found = special_bits_in_workspace(res.ctx)
    if res.token == "ok" or found:
        return True, "ok" if res.token == "ok" else "left:" + ",".join(found)
    return False, res.token


def lash_audit_judge(res):
    """prlimit on lash itself, then a denial: let through when the call said ok, or
    (in the restricting session) when the denial is missing from lash's audit log."""
    if res.token == "ok":
        return True, "ok"
    try:
        with open(os.path.join(res.ctx.base, "lash_home", "audit.log")) as f:
            log = f.read()
    except OSError:
        log = ""
    if FORBIDDEN not in log:
        return True, "denial-not-recorded"
    return False, res.token


def plant_copy(ctx):
    shutil.copy(FORBIDDEN, os.path.join(ctx.work, "tool"))
    os.chmod(os.path.join(ctx.work, "tool"), 0o755)


def plant_renamed(ctx):
    os.makedirs(os.path.join(ctx.work, "bin"))
    shutil.copy(FORBIDDEN, os.path.join(ctx.work, "bin", "cat"))
    os.chmod(os.path.join(ctx.work, "bin", "cat"), 0o755)


def plant_symlink(ctx):
    os.symlink(ctx.secret, os.path.join(ctx.work, "link"))


def closure_cache_file(ctx):
    """lash keeps the allowlist's exec closure in $LASH_HOME/cache between sessions and
    trusts it like the profiles there (closure_cache.h): a child that could rewrite it
    would widen the next session's exec grants."""
    d = os.path.join(ctx.base, "lash_home", "cache")
    os.makedirs(d, mode=0o700, exist_ok=True)
    write(os.path.join(d, "closure-0000000000000000"), "lash exec-closure cache 1\n", 0o600)
    return os.path.join(d, "closure-0000000000000000")


def plant_hardlink_outside(ctx):
    os.link(ctx.secret, os.path.join(ctx.work, "hl"))


def audit_twin_fd(ctx):
    """The default profile keeps no audit log: the twin gets one as fd 4 from here,
    so that it shows what writing to it looks like."""
    if not ctx.is_twin:
        return
    path = os.path.join(ctx.base, "lash_home", "audit.log")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    if fd != 4:
        os.dup2(fd, 4, inheritable=True)
        os.close(fd)
    ctx.pass_fds = (4,)


def audit_forged_judge(res):
    try:
        with open(os.path.join(res.ctx.base, "lash_home", "audit.log"), "rb") as f:
            hit = ("FORGED-%d" % os.getpid()).encode() in f.read()
    except OSError:
        hit = False
    return hit, ("forged" if hit else res.token)


def inherit_fd(ctx):
    fd = os.open(ctx.secret, os.O_RDONLY)
    os.dup2(fd, 7, inheritable=True)
    os.close(fd)
    ctx.pass_fds = (7,)


SYSCTL = "/proc/sys/fs/file-max"


def sysctl_setup(ctx):
    """The value is read here, in one read (proc sysctl files give nothing at an
    offset, so a shell's byte-wise `read` would see only the first digit), and put
    back at teardown should anything have changed it."""
    with open(SYSCTL) as f:
        ctx.sysctl_value = f.read().strip()
    if not ctx.sysctl_value.isdigit():
        raise RuntimeError("unexpected %s: %r" % (SYSCTL, ctx.sysctl_value))
    ctx.restore.append((SYSCTL, ctx.sysctl_value))


def etc_file(ctx):
    path = "/etc/lash-escape-test.%d" % os.getpid()
    write(path, "etc test file\n", 0o644)
    ctx.extra_files.append(path)
    ctx.etc = path


def shm_file(ctx):
    ctx.shm = "/dev/shm/lash-escape.%d" % os.getpid()
    ctx.extra_files.append(ctx.shm)


def ran_forbidden(res):
    """FORBIDDEN is id: its output shows it ran."""
    hit = "uid=" in res.out
    return hit, ("ran" if hit else res.token)


def started_and(judge, marker):
    """The attempt's interpreter must have started (it prints MARKER first): a refusal
    because the interpreter itself could not run would prove nothing."""
    def j(res):
        if marker not in res.out:
            return False, "not-run"
        return judge(res)
    return j


def shows(text):
    """The program ran: its output shows TEXT."""
    def j(res):
        hit = text in res.out
        return hit, ("ran" if hit else res.token)
    return j


def fd_list_judge(res):
    hit = "7" in res.token.split(",")
    return hit, res.token


def env_judge(value):
    def j(res):
        return res.token == value, res.token
    return j


# detached processes: started by the attempt, must be gone after the session
def detach_run(row, ctx, argv, env):
    mark = "detach-%d-%s" % (os.getpid(), row.id)
    ctx.marks.append(mark)
    argv = [a.replace("@MARK@", mark) for a in argv]
    rc, out, err = run_cmd(ctx, argv, env)
    gone = wait_until(lambda: not find_marked(mark), 3.0)
    return (rc, out, err), {"survivor": not gone}


def detach_kill_run(row, ctx, argv, env):
    mark = "detach-%d-%s" % (os.getpid(), row.id)
    ctx.marks.append(mark)
    argv = [a.replace("@MARK@", mark) for a in argv]
    errf = tempfile.TemporaryFile()
    p = subprocess.Popen(argv, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=errf, pass_fds=ctx.pass_fds,
                         start_new_session=True)
    ctx.procs.append(p)
    # 15 s: a loaded machine (the whole suite runs in parallel) once took over 5 s
    # here; the wait ends as soon as the marker is there
    # The marker process must be the detached one (in a session of its own, after the
    # probe's setsid), not the probe still running: waited for, not slept for.
    started = wait_until(lambda: any(session_of(pid) not in (None, p.pid)
                                     for pid in find_marked(mark)), 15.0)
    p.kill()  # SIGKILL to the runner (lash, bwrap, firejail) only
    p.wait()
    errf.seek(0)
    err = errf.read().decode(errors="replace")
    errf.close()
    # issue 18: dead within 1 s of the SIGKILL (the pid namespace's init dies with lash)
    gone = wait_until(lambda: not find_marked(mark), 1.0)
    out = (ALIVE + "\nstarted") if started else "not-started"
    return (-9, out, err), {"survivor": started and not gone}


def kill_when_exists(rel):
    """Run the attempt, SIGKILL the runner (lash) once the workspace has REL (or after
    5 s), then give the watchdog 2 s to clean up before the judge looks."""
    def run(row, ctx, argv, env):
        errf = tempfile.TemporaryFile()
        p = subprocess.Popen(argv, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=errf,
                             start_new_session=True)
        ctx.procs.append(p)
        path = os.path.join(ctx.work, rel)
        seen = wait_until(lambda: os.path.lexists(path), 5.0)
        time.sleep(0.1)
        p.kill()
        p.wait()
        time.sleep(scaled(2.0))
        errf.seek(0)
        err = errf.read().decode(errors="replace")
        errf.close()
        return (-9, ALIVE + "\n" + ("killed" if seen else "not-created"), err), {}
    return run


def shell_fork_loop_run(row, ctx, argv, env):
    """The shell itself starts background jobs in a loop, then waits for ./stop; this
    side counts the jobs alive meanwhile (their command lines carry a mark)."""
    mark = "forkloop-%d-%s" % (os.getpid(), row.id)
    ctx.marks.append(mark)
    argv = [a.replace("@MARK@", mark) for a in argv]
    p = subprocess.Popen(argv, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    ctx.procs.append(p)
    most = 0
    end = time.monotonic() + scaled(2.0)
    while time.monotonic() < end and p.poll() is None:
        most = max(most, len(find_marked(mark)))
        time.sleep(0.05)
    with open(os.path.join(ctx.work, "stop"), "w"):
        pass
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return (p.returncode, out.decode(errors="replace"), err.decode(errors="replace")), {"jobs": most}


def fork_loop_judge(res):
    n = res.extra.get("jobs", 0)
    over = n > LIMITS["max_processes"]
    return over, ("jobs:%d" % n if over else "held:%d" % n if n else res.token)


def survivor_judge(res):
    s = res.extra.get("survivor", False)
    return s, ("survived" if s else ("gone" if res.out != "not-started" else "not-started"))


def listen_run(row, ctx, argv, env):
    """The attempt listens on ctx.port; this side (outside) tries to connect."""
    p = subprocess.Popen(argv, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    ctx.procs.append(p)
    end = time.monotonic() + 2.5
    while time.monotonic() < end and p.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", ctx.port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return (p.returncode, out.decode(errors="replace"), err.decode(errors="replace")), {}


def big_file_judge(res):
    try:
        size = os.path.getsize(os.path.join(res.ctx.work, "big"))
    except OSError:
        size = 0
    over = size > (1 << 20)
    return over, ("size:%d" % size if over else res.token)


def args_runner_not_lash(ctx):
    return ctx.args.runner != "lash"


def cpu_shell_run(row, ctx, argv, env):
    """The shell loops until ./stop exists; this side creates it once lash has used
    more than the CPU limit, and measures the CPU time the run used (RUSAGE_CHILDREN covers lash once waited)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    ctx.procs.append(p)
    # Stopped by an event, not after a fixed time: once lash itself has used the limit
    # and a margin of CPU (the twin; the restricted run is killed at the limit before),
    # or after a long wall budget when lash's CPU time cannot be seen (another runner).
    # On a loaded machine 3 s of wall time was not 1.3 s of CPU, and the twin failed.
    want = LIMITS["max_cpu_seconds"] + 0.5
    wait_until(lambda: p.poll() is not None or (cpu_seconds_of(p.pid) or 0.0) >= want
               or (args_runner_not_lash(ctx) and time.monotonic() - t0 >= 3.0), 30.0)
    if p.poll() is None:
        with open(os.path.join(ctx.work, "stop"), "w"):
            pass
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (p.returncode, out.decode(errors="replace"), err.decode(errors="replace")), \
        {"cpu": cpu, "wall": time.monotonic() - t0}


def cpu_judge(res):
    """Let through: the loop ran to its end having used more than the limit (the
    twin proves the loop does use that much here)."""
    cpu = res.extra.get("cpu", 0.0)
    if cpu < 0.05 and res.extra.get("wall", 0.0) >= 2.9:
        # the runner did not let the loop's CPU time reach us (bwrap's pid namespace):
        # a busy loop that ran 3 s without being stopped is the answer
        cpu = res.extra["wall"]
    over = res.token == "ok" and cpu > LIMITS["max_cpu_seconds"] + 0.3
    if res.token == "ok" and not over:
        return False, "cpu:%.1f" % cpu  # too little CPU here to tell: the twin shows it
    return over, ("cpu:%.1f" % cpu if over else res.token)


def tty_run(row, ctx, argv, env):
    master, slave = os.openpty()
    ctx.tty = (master, slave)

    def pre():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    rc, out, err = run_cmd(ctx, argv, env, stdin=slave, preexec=pre)
    return (rc, out, err), {}


def swap_cmd(ctx, body):
    """A python3 job in the background swaps ./swap between ./mine and the secret
    for one second, then creates swap.done; meanwhile the shell runs BODY in a loop."""
    code = ("import os,time\n"
            "end=time.time()+1.0\n"
            "while time.time()<end:\n"
            "  for t in (%r, 'mine'):\n"
            "    try:\n"
            "      os.symlink(t,'swap.new'); os.replace('swap.new','swap')\n"
            "    except OSError: pass\n"
            "open('swap.done','w').close()\n") % ctx.secret
    return ("ln -s mine swap; %s -c %s & "
            "i=0; while [ ! -e swap.done ] && [ $i -lt 100000 ]; do %s; i=$((i+1)); "
            "done 2>/dev/null; wait; echo done" % (PY, q(code), body))


def swap_read_judge(res):
    hit = SECRET_MARK in res.out or "LEAK" in res.out
    return hit, ("leaked" if hit else "refused")


def git_outside(ctx, *args):
    """Run git on the workspace as the user later would, outside any sandbox."""
    env = {"PATH": "/usr/bin:/bin", "HOME": ctx.home, "GIT_CONFIG_NOSYSTEM": "1",
           "LC_ALL": "C"}
    try:
        p = subprocess.run(["git", "-C", ctx.work] + list(args), env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.decode(errors="replace").strip()


def ci_run(row, ctx, argv, env):
    """The row under the shipped ci profile instead of the matrix's own (the twin keeps
    default)."""
    argv = ["ci" if a == "escape" else a for a in argv]
    return run_cmd(ctx, argv, env, timeout=60), {}


def plant_ssh_key(ctx):
    os.makedirs(os.path.join(ctx.home, ".ssh"), mode=0o700, exist_ok=True)
    write(os.path.join(ctx.home, ".ssh", "id_ed25519"), SECRET_MARK + "\n", 0o600)


def protect_judge(res):
    """Besides the snapshot of .git/hooks and .git/config: would the user's next git
    command in the workspace run code the sandbox planted (hooks elsewhere, fsmonitor,
    hooksPath)?"""
    ctx = res.ctx
    if shutil.which("git") is None:
        return False, res.token
    hooks = git_outside(ctx, "rev-parse", "--git-path", "hooks")
    if hooks and os.path.realpath(os.path.join(ctx.work, hooks)) != \
            os.path.realpath(os.path.join(ctx.work, ".git/hooks")):
        return True, "hooks:" + hooks
    for key in ("core.fsmonitor", "core.hooksPath"):
        if git_outside(ctx, "config", "--get", key):
            return True, key
    return False, res.token


def build_rows():
    P = "@PROBE@"
    R = []

    def add(*a, **k):
        R.append(Row(*a, **k))

    # ---- reading outside the grants
    add("read-prog", "read the secret with a program", "landlock",
        lambda c: f"{P} grep {q(c.secret)} {SECRET_MARK}", expect={"EACCES"})
    add("read-cat", "cat the secret (allowlisted cat)", "landlock",
        lambda c: f"cat {q(c.secret)} && echo ok || echo refused", leaked(SECRET_MARK),
        expect={"refused"})
    add("read-redir", "builtin redirect: cat < secret", "landlock(broker)",
        lambda c: f"cat < {q(c.secret)} && echo ok || echo refused", leaked(SECRET_MARK),
        expect={"refused"})
    add("read-builtin", "builtin read v < secret", "landlock(broker)",
        lambda c: f"read v < {q(c.secret)}; echo \"got:$v\"", leaked(SECRET_MARK),
        expect={"got:"})
    add("read-source", "source the secret: . secret", "landlock(broker)",
        lambda c: f". {q(c.secret)}; echo status:$?", leaked(SECRET_MARK))
    add("read-glob", "glob a directory outside: echo dir/*", "landlock(broker)",
        lambda c: f"echo {q(c.secretdir)}/*", leaked_hidden)
    # the same three after a first external command (the session sandbox is prepared
    # on first use: the rows above run before it)
    add("read-builtin-late", "cat /dev/null, then builtin read v < secret",
        "landlock(broker)", lambda c: f"cat /dev/null; read v < {q(c.secret)}; echo \"got:$v\"",
        leaked(SECRET_MARK), expect={"got:"})
    add("read-source-late", "cat /dev/null, then . secret", "landlock(broker)",
        lambda c: f"cat /dev/null; . {q(c.secret)}; echo status:$?", leaked(SECRET_MARK))
    add("read-glob-late", "cat /dev/null, then echo dir/*", "landlock(broker)",
        lambda c: f"cat /dev/null; echo {q(c.secretdir)}/*", leaked_hidden)
    add("read-cd-relative", "cd to the outside directory, then read v < secret",
        "landlock(broker)", lambda c: f"cd {q(c.outside)} && read v < secret; echo \"got:$v\"",
        leaked(SECRET_MARK), expect={"got:"})
    add("read-cd-glob", "cd to the secret directory, then echo *", "landlock(broker)",
        lambda c: f"cd {q(c.secretdir)} && echo *", leaked_hidden, expect={"*"})
    add("read-source-path", "PATH=outside:$PATH; . secret (found on PATH)",
        "landlock(broker)", lambda c: f"PATH={q(c.outside)}:$PATH; . secret; echo status:$?",
        leaked(SECRET_MARK))
    add("read-listdir", "list a directory outside with a program", "landlock",
        lambda c: f"{P} open-read {q(c.secretdir)}", expect={"EACCES"})
    add("read-symlink", "a symlink in the workspace to the secret (program)", "landlock",
        lambda c: "cat link && echo ok || echo refused", leaked(SECRET_MARK),
        setup=plant_symlink, expect={"refused"})
    add("read-symlink-redir", "a symlink in the workspace to the secret (builtin <)",
        "landlock(broker)", lambda c: "read v < link; echo \"got:$v\"", leaked(SECRET_MARK),
        setup=plant_symlink, expect={"got:"})
    add("read-hardlink", "hard-link the secret into the workspace, then read it",
        "landlock", lambda c: f"ln {q(c.secret)} hl; cat hl && echo ok || echo refused",
        leaked(SECRET_MARK), expect={"refused"})
    add("read-proc-root", "read via /proc/self/root/...", "landlock",
        lambda c: f"{P} grep /proc/self/root{q(c.secret)} {SECRET_MARK}", expect={"EACCES"})
    add("read-proc-cwd", "read via /proc/PID/cwd of a process outside", "landlock(ptrace)",
        lambda c: f"{P} grep /proc/{c.sleeper.pid}/cwd/secret {SECRET_MARK}",
        setup=sleeper_setup, expect={"EACCES", "ENOENT"})
    add("read-proc-pid-root", "read via /proc/PID/root of a process outside",
        "landlock(ptrace)",
        lambda c: f"{P} grep /proc/{c.sleeper.pid}/root{q(c.secret)} {SECRET_MARK}",
        setup=sleeper_setup, expect={"EACCES", "ENOENT"})
    add("read-swap", "a symlink swapped during 400 builtin reads", "landlock(broker)",
        lambda c: swap_cmd(c, 'read v < swap; case $v in *SECRET*) echo LEAK;; esac'),
        swap_read_judge)
    add("read-shadow", "read /etc/shadow (root)", "landlock(baseline)",
        lambda c: f"{P} grep /etc/shadow root:", expect={"EACCES"}, root=True,
        needs=need_file("/etc/shadow"))

    # ---- changing things outside the grants
    add("write-redir", "builtin redirect: echo > secret", "policy",
        lambda c: f"echo pwned > {q(c.secret)} && echo ok || echo refused",
        expect={"policy"})
    add("write-prog", "open the secret for writing (program)", "landlock",
        lambda c: f"{P} open-write {q(c.secret)}", expect={"EACCES", "EROFS"})
    add("cache-tamper", "rewrite lash's exec-closure cache in $LASH_HOME/cache", "landlock",
        lambda c: f"{P} open-write {q(os.path.join(c.base, 'lash_home', 'cache', 'closure-0000000000000000'))}",
        setup=closure_cache_file, expect={"EACCES", "EROFS"})
    add("append-sh", "append from sh: sh -c 'echo >> secret'", "landlock",
        lambda c: f"sh -c 'echo pwned >> {c.secret}' && echo ok || echo refused",
        expect={"refused"})
    add("create-outside", "create a new file outside", "landlock",
        lambda c: f"{P} open-write {q(c.outside)}/new", expect={"EACCES", "EROFS"})
    add("truncate", "truncate the secret", "landlock",
        lambda c: f"{P} truncate {q(c.secret)}", expect={"EACCES", "EROFS"})
    add("delete", "rm the secret", "landlock",
        lambda c: f"rm {q(c.secret)} && echo ok || echo refused", expect={"refused"})
    add("rename-in", "rename the secret into the workspace", "landlock",
        lambda c: f"{P} rename {q(c.secret)} stolen", expect={"EACCES", "EXDEV"})
    add("rename-out", "rename inside the outside directory", "landlock",
        lambda c: f"{P} rename {q(c.secret)} {q(c.outside)}/renamed", expect={"EACCES", "EROFS"})
    add("mkdir-outside", "mkdir outside", "landlock",
        lambda c: f"{P} mkdir {q(c.outside)}/newdir", expect={"EACCES", "EROFS"})
    add("chmod", "chmod the secret", "mount(ro)",
        lambda c: f"{P} chmod {q(c.secret)}", expect={"EROFS", "EACCES", "EPERM"})
    add("utime", "touch -d 2000-01-01 the secret", "mount(ro)",
        lambda c: f"touch -d 2000-01-01 {q(c.secret)} && echo ok || echo refused",
        expect={"refused"})
    add("xattr", "set a user xattr on the secret", "mount(ro)",
        lambda c: f"{P} setxattr {q(c.secret)}", expect={"EROFS", "EACCES", "EPERM"})
    add("symlink-outside", "create a symlink outside", "landlock",
        lambda c: f"{P} symlink /etc/passwd {q(c.outside)}/lnk", expect={"EACCES", "EROFS"})
    add("write-symlink", "write through a planted symlink (builtin >)", "policy",
        lambda c: "echo pwned > link && echo ok || echo refused", setup=plant_symlink,
        expect={"policy"})
    add("write-symlink-prog", "write through a planted symlink (program)", "landlock",
        lambda c: f"{P} open-write link", setup=plant_symlink, expect={"EACCES", "EROFS"})
    add("write-swap", "a symlink swapped during 400 builtin write redirects",
        "policy+landlock(broker)",
        lambda c: swap_cmd(c, "echo pwned > swap"), by_token, expect={"done"})
    add("home-profile", "plant a line in ~/.profile", "landlock",
        lambda c: "sh -c 'echo evil >> \"$HOME/.profile\"' && echo ok || echo refused",
        expect={"refused"})
    add("write-etc", "append to a file in /etc (root)", "landlock(baseline)",
        lambda c: f"{P} append {c.etc}", setup=etc_file, root=True, expect={"EACCES", "EROFS"})
    add("write-shm", "create a file in /dev/shm", "landlock",
        lambda c: f"{P} open-write {c.shm}",
        setup=shm_file, expect={"EACCES", "EROFS"})

    # ---- protect: .git inside the writable workspace
    add("git-hook-redir", "plant .git/hooks/pre-commit (builtin >)", "policy",
        lambda c: "echo evil > .git/hooks/pre-commit && echo ok || echo refused",
        protect_judge, expect={"policy"})
    add("git-hook-prog", "plant .git/hooks/pre-commit (program)", "mount(ro)",
        lambda c: f"{P} open-write .git/hooks/pre-commit", protect_judge, expect={"EROFS"})
    add("git-fsmonitor", "append a core.fsmonitor line to .git/config (sh)", "mount(ro)",
        lambda c: "sh -c 'printf \"[core]\\n\\tfsmonitor = evil\\n\" >> .git/config'"
                  " && echo ok || echo refused", protect_judge, expect={"refused"})
    add("git-config", "git config core.fsmonitor (allowlisted git)", "mount(ro)",
        lambda c: "git config core.fsmonitor evil && echo ok || echo refused",
        protect_judge, expect={"refused"},
        needs=lambda: None if shutil.which("git") else "git is not installed")
    # ---- the shipped ci profile (issue 15): a job runs what it writes (exec_paths),
    # and those programs still cannot reach further. Each job writes a script or
    # builds a program in the workspace and runs it; the twin runs it under default.
    def job(body_fn):
        return lambda c: ("printf '%s\\n' '#!/bin/sh' " + q(body_fn(c)) +
                          " > job.sh && chmod +x job.sh && ./job.sh")
    add("ci-job-curl", "ci: a script the job wrote runs curl", "landlock(ci)",
        job(lambda c: "curl --version >/dev/null 2>&1 && echo ok || echo refused"),
        expect={"refused"}, runner_fn=ci_run, peers=False, needs=need_file("/usr/bin/curl"))
    add("ci-job-ssh", "ci: a script the job wrote runs ssh", "landlock(ci)",
        job(lambda c: "ssh -V 2>/dev/null && echo ok || echo refused"),
        expect={"refused"}, runner_fn=ci_run, peers=False, needs=need_file("/usr/bin/ssh"))
    add("ci-job-sudo", "ci: a script the job wrote runs sudo", "landlock(ci)",
        job(lambda c: "sudo -n true && echo ok || echo refused"),
        expect={"refused"}, runner_fn=ci_run, peers=False, needs=need_file("/usr/bin/sudo"))
    add("ci-job-ssh-key", "ci: a script the job wrote reads ~/.ssh/id_ed25519", "landlock(ci)",
        job(lambda c: "cat \"$HOME/.ssh/id_ed25519\" && echo ok || echo refused"),
        leaked(SECRET_MARK), setup=plant_ssh_key, expect={"refused"}, runner_fn=ci_run,
        peers=False)
    add("ci-job-write-outside", "ci: a script the job wrote writes outside workspace+tmpdir",
        "landlock(ci)",
        job(lambda c: f"echo x > {q(c.outside)}/planted && echo ok || echo refused"),
        expect={"refused"}, runner_fn=ci_run, peers=False)
    add("ci-job-git-hook", "ci: a script the job wrote plants .git/hooks/pre-commit",
        "mount(ci)",
        job(lambda c: "echo evil > .git/hooks/pre-commit && echo ok || echo refused"),
        protect_judge, expect={"refused"}, runner_fn=ci_run, peers=False)
    add("ci-built-exec", "ci: a C program the job built execs curl", "landlock(ci)",
        lambda c: ("printf '%s\\n' '#include <unistd.h>' '#include <stdio.h>' "
                   "'int main(void){execl(\"/usr/bin/curl\",\"curl\",\"--version\",(char*)0);"
                   "perror(\"exec\");puts(\"refused\");return 1;}' > e.c && cc -o e e.c && ./e"),
        shows("libcurl"), expect={"refused"}, runner_fn=ci_run, peers=False,
        needs=lambda: need_file("/usr/bin/curl")() or (None if shutil.which("cc") else "no cc"))
    add("git-hooks-swap", "replace .git/hooks by a new directory", "mount(ro)",
        lambda c: "mv .git/hooks .git/h2 && mkdir .git/hooks && "
                  "echo evil > .git/hooks/pre-commit && echo ok || echo refused",
        protect_judge, expect={"refused"})
    add("git-dir-swap", "rename .git away and build a new one with a hook", "mount(ro)",
        lambda c: "mv .git .git-old && mkdir .git && cp -r .git-old/. .git/ 2>/dev/null;"
                  " sh -c 'echo evil > .git/hooks/pre-commit' && echo ok || echo refused",
        protect_judge, expect={"refused"})
    add("git-commondir", "point .git/commondir at a workspace dir with hooks and config",
        "mount(ro)", lambda c: "mkdir -p evil/objects evil/refs/heads evil/hooks && "
                       "printf '[core]\\n\\tfsmonitor = evil\\n' > evil/config && "
                       "echo ../evil > .git/commondir && echo ok || echo refused",
        protect_judge, expect={"refused", "ok"},
        needs=need_git)
    add("git-commondir-sigkill", "the same, then lash is SIGKILLed", "mount(ro)+watchdog",
        lambda c: "mkdir -p evil/objects evil/refs/heads evil/hooks && "
                  "printf '[core]\\n\\tfsmonitor = evil\\n' > evil/config && "
                  "echo ../evil > .git/commondir && echo ok; sleep 30",
        protect_judge, runner_fn=kill_when_exists(".git/commondir"),
        expect={"killed"},
        needs=need_git)
    add("git-hook-hardlink", "hard-link a protected hook, append through the link",
        "mount(ro)", lambda c: "ln .git/hooks/pre-commit.sample hl && "
                               "sh -c 'echo evil >> hl' && echo ok || echo refused",
        protect_judge, expect={"refused"})
    add("git-hook-move", "move a prepared hook into .git/hooks", "mount(ro)",
        lambda c: "echo evil > pre-commit && mv pre-commit .git/hooks/pre-commit"
                  " && echo ok || echo refused", protect_judge, expect={"refused"})

    # ---- /proc of lash and of other processes
    add("lash-environ", "read lash's /proc/PID/environ", "dumpable+landlock",
        lambda c: f"{P} grep /proc/$$/environ {ENV_MARK}", expect={"EACCES", "ENOENT"},
        peers=False)
    # Every sandboxed session has its own pid namespace and a /proc of it (issue 18),
    # root or not: lash and processes outside are not in it.
    cmdline_limit = None
    add("lash-cmdline", "read lash's /proc/PID/cmdline", "pidns+proc",
        lambda c: f"{P} grep /proc/$$/cmdline {CMD_MARK}", expect={"ENOENT", "EACCES"},
        peers=False, accepted=cmdline_limit)
    add("other-environ", "read /proc/PID/environ of a process outside", "landlock(ptrace)",
        lambda c: f"{P} grep /proc/{c.sleeper.pid}/environ {OTHER_MARK}",
        setup=sleeper_setup, expect={"EACCES", "ENOENT"})
    add("other-fd-proc", "reopen a process outside's fd via /proc/PID/fd/N",
        "landlock(ptrace)", lambda c: f"{P} grep /proc/{c.sleeper.pid}/fd/5 {SECRET_MARK}",
        setup=sleeper_setup, expect={"EACCES", "ENOENT"})
    add("other-fd-pidfd", "take a process outside's fd with pidfd_getfd",
        "landlock(ptrace)", lambda c: f"{P} pidfd-getfd {c.sleeper.pid} 5",
        setup=sleeper_setup, expect={"EPERM", "EACCES", "ESRCH"}, needs=need_ptrace)
    add("other-cmdline", "read /proc/PID/cmdline of a process outside", "pidns+proc",
        lambda c: f"{P} grep /proc/{c.sleeper.pid}/cmdline {OTHER_MARK}",
        setup=sleeper_setup, expect={"ENOENT", "EACCES"}, accepted=cmdline_limit)
    # The shell's own view (policy: lash's cd, pwd and redirections, outside the
    # sandbox): another process's /proc entries do not exist for it either, and no
    # message names what is behind them. The sleeper's directory is the outside one.
    add("shell-cd-other-cwd", "cd /proc/PID/cwd of a process outside; pwd -P", "policy(view)",
        lambda c: f"cd /proc/{c.sleeper.pid}/cwd && pwd -P && echo ok || echo refused",
        names_outside, setup=sleeper_setup, expect={"refused"})
    add("shell-cd-other-link", "cd through a symlink to /proc/PID/cwd; pwd -P",
        "policy(view)",
        lambda c: f"ln -s /proc/{c.sleeper.pid}/cwd pl && cd pl && pwd -P && echo ok "
                  "|| echo refused",
        names_outside, setup=sleeper_setup, expect={"refused"})
    add("shell-glob-other", "glob /proc/PID/cw* of a process outside", "policy(view)",
        lambda c: f"echo /proc/{c.sleeper.pid}/cw*", globbed_other_cwd, setup=sleeper_setup)
    add("shell-redir-other-fd", "refused redirection to /proc/PID/fd/N of a process outside",
        "policy(view)",
        lambda c: f"echo x > /proc/{c.sleeper.pid}/fd/5 && echo ok || echo refused",
        names_outside, setup=sleeper_setup, expect={"policy"})
    add("shell-read-other-fd", "read < /proc/PID/fd/N of a process outside", "policy(view)",
        lambda c: f"read x < /proc/{c.sleeper.pid}/fd/5 && echo \"$x\" && echo ok "
                  "|| echo refused",
        names_outside, setup=sleeper_setup, expect={"refused"})

    # ---- running programs that are not allowlisted
    add("exec-direct", "run a non-allowlisted program", "policy",
        lambda c: FORBIDDEN, ran_forbidden, expect={"policy"})
    add("exec-prog", "execve a non-allowlisted program (from the probe)", "landlock",
        lambda c: f"{P} exec {FORBIDDEN}", expect={"EACCES"})
    add("exec-builtin", "exec builtin of a non-allowlisted program", "policy",
        lambda c: f"exec {FORBIDDEN}", ran_forbidden, expect={"policy"})
    add("exec-copy", "copy it into the workspace, then run the copy", "landlock",
        lambda c: f"cp {FORBIDDEN} idc; chmod +x idc; {P} exec ./idc",
        expect={"ENOENT", "EACCES"})
    add("exec-planted", "run a copy planted in the workspace", "landlock+mount(noexec)",
        lambda c: f"{P} exec ./tool", setup=plant_copy, expect={"EACCES"})
    add("exec-renamed", "a copy named cat first on PATH", "policy",
        lambda c: 'PATH="$PWD/bin:$PATH" cat', ran_forbidden, setup=plant_renamed,
        expect={"policy"})
    add("exec-path-swap", "cat on PATH swapped to the forbidden program during 200 runs",
        "landlock", lambda c: ("mkdir bin; ln -s /usr/bin/cat bin/cat; %s -c %s & "
                               "i=0; while [ ! -e swap.done ] && [ $i -lt 200 ]; do "
                               "PATH=\"$PWD/bin:$PATH\" cat </dev/null; i=$((i+1)); done "
                               "2>/dev/null; wait; echo done")
        % (PY, q("import os,time\nend=time.time()+1.0\nwhile time.time()<end:\n"
                 "  for t in ('/usr/bin/cat', '%s'):\n"
                 "    os.symlink(t,'bin/new'); os.replace('bin/new','bin/cat')\n"
                 "open('swap.done','w').close()\n" % FORBIDDEN)),
        ran_forbidden, expect={"done"})
    add("exec-ldso", "ld.so /usr/bin/PROG", "landlock",
        lambda c: f"{P} run {LDSO} {FORBIDDEN}", expect={"exit:127", "exit:1"},
        needs=need_file(LDSO))
    add("exec-ldso-planted", "ld.so ./planted-copy", "mount(noexec)",
        lambda c: f"{P} run {LDSO} ./tool", setup=plant_copy, expect={"exit:127", "exit:1"},
        needs=need_file(LDSO))
    need_elsewhere = need_file(FORBIDDEN_ELSEWHERE)
    add("exec-elsewhere", "execve a program outside the bin directories (git-core's git)",
        "landlock", lambda c: f"{P} exec {FORBIDDEN_ELSEWHERE}", expect={"EACCES"},
        needs=need_elsewhere)
    add("exec-elsewhere-sh", "sh -c 'PROG --version' for that program", "landlock",
        lambda c: f"sh -c '{FORBIDDEN_ELSEWHERE} --version'", shows("git version"),
        expect={"status:126"}, needs=need_elsewhere)
    add("exec-elsewhere-ldso", "ld.so PROG --version for that program", "landlock",
        lambda c: f"{P} run {LDSO} {FORBIDDEN_ELSEWHERE} --version",
        expect={"exit:127", "exit:1"},
        needs=lambda: need_elsewhere() or need_file(LDSO)())
    add("exec-memfd", "execveat of a memfd", "seccomp",
        lambda c: f"{P} memfd-exec", expect={"EPERM"})
    add("exec-memfd-elf", "copy the planted program into a memfd, run it", "seccomp",
        lambda c: f"{P} memfd-exec-file ./tool tool", setup=plant_copy, expect={"EPERM"})
    add("exec-sh", "allowed interpreter: sh -c /usr/bin/PROG", "landlock",
        lambda c: f"sh -c {FORBIDDEN}", ran_forbidden, expect={"status:126"})
    add("exec-python", "allowed interpreter: python3 os.execv", "landlock",
        lambda c: f"{PY} -c 'import os; print(\"py-started\", flush=True); "
                  f"os.execv(\"{FORBIDDEN}\", [\"id\"])' 2>/dev/null || echo refused",
        started_and(ran_forbidden, "py-started"), expect={"refused"})
    add("exec-python-ldso", "allowed interpreter: python3 execv(ld.so, PROG)", "landlock",
        lambda c: f"{PY} -c 'import os; print(\"py-started\", flush=True); "
                  f"os.execv(\"{LDSO}\", [\"ld.so\", \"{FORBIDDEN}\"])'"
                  " 2>/dev/null || echo refused",
        started_and(ran_forbidden, "py-started"), expect={"refused"},
        needs=need_file(LDSO))

    # ---- environment
    add("env-ldpreload-inherited", "LD_PRELOAD in lash's environment reaches a child",
        "env", lambda c: f"{P} env LD_PRELOAD", env_judge("/nonexistent/preload.so"),
        setup=lambda c: c.env_extra.update(LD_PRELOAD="/nonexistent/preload.so"),
        expect={"unset"})
    add("env-ldpreload-export", "export LD_PRELOAD in the script", "env",
        lambda c: f"export LD_PRELOAD=/nonexistent/x.so; {P} env LD_PRELOAD",
        env_judge("/nonexistent/x.so"), expect={"unset"})
    add("env-ldpreload-prefix", "LD_PRELOAD=... cmd", "env",
        lambda c: f"LD_PRELOAD=/nonexistent/y.so {P} env LD_PRELOAD",
        env_judge("/nonexistent/y.so"), expect={"unset"})
    add("env-denied", "a denied variable of lash's environment reaches a grandchild",
        "env", lambda c: f"sh -c '{P} env ESCAPE_SECRET'", env_judge(ENV_MARK),
        expect={"unset"})
    # The denied variable is not in the shell either (policy: lash's own expansion).
    add("env-denied-expand", 'echo "$ESCAPE_SECRET" (a denied variable)', "policy(env)",
        lambda c: 'echo "[$ESCAPE_SECRET]"; echo "${ESCAPE_SECRET-unset}"',
        leaked(ENV_MARK), expect={"unset"})
    add("env-denied-set", "set lists a denied variable", "policy(env)",
        lambda c: "set; echo listed", leaked(ENV_MARK), expect={"listed"})
    add("env-denied-export-p", "export -p lists a denied variable", "policy(env)",
        lambda c: "export -p; echo listed", leaked(ENV_MARK), expect={"listed"})
    add("env-denied-argv", "a denied variable passed as an argument", "policy(env)",
        lambda c: "sh -c 'echo \"arg:$1\"; echo passed' sh \"$ESCAPE_SECRET\"",
        leaked(ENV_MARK), expect={"passed"})

    # ---- file descriptors
    add("fd-exec-redir", "exec 5< secret; cat <&5", "landlock(broker)",
        lambda c: f"exec 5< {q(c.secret)}; cat <&5 && echo ok || echo refused",
        leaked(SECRET_MARK))
    add("fd-inherited", "an fd on the secret that lash inherited reaches a child",
        "close_range", lambda c: f"{P} fds", fd_list_judge, setup=inherit_fd,
        expect={"none"})
    add("fd-inherited-redir", "the script hands lash's inherited fd 7 to cat: cat <&7",
        "close_range", lambda c: "cat <&7 && echo ok || echo refused", leaked(SECRET_MARK),
        setup=inherit_fd)
    add("fd-audit-forge", "append to lash's audit log through lash's own fd (N>&N)",
        "fd hygiene", lambda c: "cat /dev/null; for n in 3 4 5 6 7 8 9; do "
                                f"eval \"{P} fd-write-if $n /audit.log FORGED-{os.getpid()} "
                                "$n>&$n\"; done; echo done", audit_forged_judge,
        setup=audit_twin_fd, expect={"done"})
    add("fd-proc-reopen", "reopen lash's inherited fd: cat < /dev/fd/7", "landlock(broker)",
        lambda c: "cat < /dev/fd/7 && echo ok || echo refused", leaked(SECRET_MARK),
        setup=inherit_fd)
    add("fd-devfd-audit", "append to lash's audit log by name: echo >> /dev/fd/N",
        "fd hygiene", lambda c: "cat /dev/null; for n in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do "
                                f"echo FORGED-{os.getpid()} >> /dev/fd/$n; done 2>/dev/null; echo done",
        audit_forged_judge, setup=audit_twin_fd, expect={"done"})

    # the path spelled so that no name check can know it is lash's fd; the child that
    # opens a program's redirection checks the file itself (child.h, reserve_file)
    add("fd-devfd-audit-spelled", "append to lash's audit log from a program: >> /dev//fd/N, /dev/./fd/N, /proc/self/fd/N",
        "fd hygiene (launch child)", lambda c: "cat /dev/null; for n in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do "
                                "for f in /dev//fd/$n /dev/./fd/$n /proc/self/fd/$n; do "
                                f"sh -c 'echo FORGED-{os.getpid()}' >> $f; done; done 2>/dev/null; echo done",
        audit_forged_judge, setup=audit_twin_fd, expect={"done"})
    # a redirection is opened in a child that shares (or copies) lash's memory: its
    # /proc/self/environ and mem are lash's, denied variables included
    add("proc-self-environ-redirect", "a program reads lash's environment: sh < /proc/self/environ",
        "launch child", lambda c: "sh -c 'IFS= read -r l; echo \"$l\"' < /proc/self/environ; echo done",
        leaked(ENV_MARK), expect={"done"})
    add("proc-self-environ-builtin", "the shell's read of /proc/self/environ (through the fd broker)",
        "broker", lambda c: 'read -r l < /proc/self/environ; echo "[$l]"; echo done',
        leaked(ENV_MARK), expect={"done"})
    add("proc-self-mem-redirect", "a program is handed lash's memory: 3< /proc/self/mem",
        "launch child", lambda c: "sh -c 'echo opened' 3</proc/self/mem; echo done",
        lambda res: ("opened" in res.out, "opened" if "opened" in res.out else res.token), expect={"done"})

    # ---- processes and resources
    add("detach-exit", "setsid + double fork, alive after lash exits", "pidns+cgroup",
        lambda c: f"{P} detach-sleeper @MARK@", survivor_judge, runner_fn=detach_run,
        degraded=NO_CGROUP)
    add("detach-sigkill", "setsid + double fork, alive after lash is SIGKILLed",
        "pidns+cgroup+watchdog", lambda c: f"{P} detach-sleeper @MARK@; sleep 30",
        survivor_judge, runner_fn=detach_kill_run, degraded=NO_CGROUP)
    add("fork-bomb", "fork 200 processes (max_processes=%d)" % LIMITS["max_processes"],
        "cgroup pids / rlimit", lambda c: f"{P} fork-bomb 200", expect={"EAGAIN"})
    # the shell's own forks: counted by lash itself (issue 17), and by the pids cgroup
    add("fork-loop-shell-count", "the shell starts 100 background jobs (max_processes=%d)" % LIMITS["max_processes"],
        "shell count + cgroup pids",
        lambda c: "n=0; i=0; while [ $i -lt 100 ]; do sleep 3 & [ $? = 0 ] && n=$((n+1)); i=$((i+1)); done"
                  " 2>/dev/null; [ $n -lt %d ] && echo refused || echo ok" % LIMITS["max_processes"],
        expect={"refused"}, peers=False)
    # the shell's own forks (issue 18): RLIMIT_NPROC on lash in its own user namespace
    # (uid 65534 here), the pids controller (root)
    add("fork-loop-shell", "the shell itself starts 100 background jobs (max_processes=%d)"
        % LIMITS["max_processes"], "cgroup pids / rlimit (lash itself)",
        lambda c: "n=0; while [ $n -lt 100 ]; do sh -c 'sleep 5' @MARK@ & n=$((n+1)); done 2>/dev/null; "
                  "i=0; while [ ! -e stop ] && [ $i -lt 200000 ]; do i=$((i+1)); done; echo looped",
        fork_loop_judge, runner_fn=shell_fork_loop_run, expect={"held:%d" % n for n in range(1, 33)})
    add("memory", "allocate 512 MiB (max_memory=256M)", "rlimit+cgroup",
        lambda c: f"{P} alloc 512", expect={"ENOMEM"})
    add("cpu", "burn 2 s of CPU (max_cpu_seconds=1)", "rlimit",
        lambda c: f"{P} run {P} cpu-seconds 2", expect={"signal:24", "signal:9"})
    add("file-size", "write 4 MiB (max_file_size=1M)", "rlimit",
        lambda c: f"{P} write-size big 4194304", expect={"EFBIG"})
    add("open-files", "open 200 files (max_open_files=64)", "rlimit",
        lambda c: f"{P} open-files 200", expect={"EMFILE"})
    # the same limits against the shell's own work (builtins, no child process)
    add("file-size-builtin", "builtin echo writes 2 MiB (max_file_size=1M)",
        "rlimit (lash itself)",
        lambda c: "s=$(printf '%01023d' 0); i=0; while [ $i -lt 2048 ]; do echo \"$s\"; "
                  "i=$((i+1)); done > big; echo written", big_file_judge,
        expect={"written", "status:153", "status:1"})
    add("memory-shell", "cat /dev/null, then the shell builds a 256 MiB string",
        "cgroup memory", lambda c: "cat /dev/null; s=x; i=0; while [ $i -lt 28 ]; do "
                                   "s=\"$s$s\"; i=$((i+1)); done; echo ok",
        expect={"status:-9", "status:137", "status:2"},
        degraded="no memory controller")
    add("memory-shell-nofork", "the shell builds a 256 MiB string, no command before",
        "cgroup memory", lambda c: "s=x; i=0; while [ $i -lt 28 ]; do s=\"$s$s\"; "
                                   "i=$((i+1)); done; echo ok",
        expect={"status:-9", "status:137", "status:2"},
        degraded="no memory controller")
    add("cpu-shell", "the shell itself loops for 3 s of CPU (max_cpu_seconds=1)",
        "rlimit (lash itself)",
        lambda c: "i=0; while [ ! -e stop ]; do i=$((i+1)); done; echo ok",
        cpu_judge, runner_fn=cpu_shell_run, expect={"status:-24", "status:-9"})
    add("kill-outside", "SIGTERM a process outside", "landlock(scope)",
        lambda c: f"{P} kill {c.sleeper.pid} 15", sleeper_alive_judge,
        setup=sleeper_setup, expect={"EPERM", "ESRCH"})
    add("kill-outside-subshell", "SIGTERM a process outside from a subshell (the session's signal relay)",
        "landlock(scope)+relay", lambda c: f"( kill {c.sleeper.pid} 2>/dev/null && echo ok || echo EPERM )",
        sleeper_alive_judge, setup=sleeper_setup, expect={"EPERM"})
    # the shell's own kill builtin (issue 17): refused by the policy; the signal would
    # leave from inside the session's pid namespace anyway (issue 18)
    add("kill-builtin-outside", "builtin kill -TERM of a process outside", "policy+pidns",
        lambda c: f"kill -TERM {c.sleeper.pid} && echo ok", sleeper_touched_judge,
        setup=sleeper_setup, expect={"policy"}, peers=False)
    add("kill-builtin-stop", "builtin kill -STOP of a process outside", "policy+pidns",
        lambda c: f"kill -STOP {c.sleeper.pid} && echo ok", sleeper_touched_judge,
        setup=sleeper_setup, expect={"policy"}, peers=False)
    add("kill-builtin-zero", "builtin kill -0 of a process outside (does it exist?)", "policy+pidns",
        lambda c: f"kill -0 {c.sleeper.pid} && echo ok", setup=sleeper_setup, expect={"policy"},
        peers=False)
    # calls that name a process by pid (issue 18): it does not exist in the session
    # (the read-only forms: seccomp refuses the changing ones for any pid but 0, below)
    add("pidns-prlimit-get", "prlimit (read) of a process outside", "pidns",
        lambda c: f"{P} prlimit-get {c.sleeper.pid}", setup=sleeper_setup, expect={"ESRCH"})
    add("pidns-getpriority", "getpriority of a process outside", "pidns",
        lambda c: f"{P} getpriority {c.sleeper.pid}", setup=sleeper_setup, expect={"ESRCH"})
    add("pidns-getaffinity", "sched_getaffinity of a process outside", "pidns",
        lambda c: f"{P} sched-getaffinity {c.sleeper.pid}", setup=sleeper_setup, expect={"ESRCH"})
    add("pidfd-outside", "pidfd_open of a process outside", "pidns",
        lambda c: f"{P} pidfd-open {c.sleeper.pid}", setup=sleeper_setup, expect={"ESRCH"})
    add("ps-outside", "list every process's command line (what ps reads)", "pidns",
        lambda c: "sh -c 'for f in /proc/[0-9]*/cmdline; do cat \"$f\"; echo; done' 2>/dev/null; echo done",
        leaked(OTHER_MARK), setup=sleeper_setup, expect={"done"})
    for kind in ("shm", "sem", "msg"):
        add(f"sysv-{kind}-outside", f"SysV {kind} made outside, by key", "ipcns",
            lambda c, kind=kind: f"{P} {kind}-get {c.ipc_key}", setup=ipc_setup(kind), expect={"ENOENT"})
    add("ptrace-outside", "ptrace a process outside", "seccomp",
        lambda c: f"{P} ptrace {c.sleeper.pid}", setup=sleeper_setup,
        expect={"EPERM", "ESRCH"}, needs=need_ptrace)
    # ---- processes named by pid (seccomp: only pid 0, the caller). Aimed at a process
    # outside, the session's pid namespace hides it too (ESRCH before seccomp could
    # matter), so these rows are also run against the session's own job, which the
    # namespace shows and only the seccomp rule refuses; the twin changes it.
    for call, args, needs in (("prlimit", "{j} nofile 3 3", None), ("setpriority", "process {j} 19", None),
                              ("setaffinity", "{j}", need_two_cpus), ("setscheduler", "{j}", None),
                              ("setattr", "{j}", None), ("ioprio", "{j}", None)):
        add(f"{call}-own-job", f"{call} of the session's own job (not the caller)", "seccomp",
            lambda c, call=call, args=args: "sleep 30 & j=$!; "
            f"{P} {call} {args.format(j='$j')} > tok; kill $j; cat tok",
            by_token, expect={"EPERM"}, needs=needs)
    add("prlimit-outside", "prlimit RLIMIT_NOFILE of a process outside", "pidns+seccomp",
        lambda c: f"{P} prlimit {c.sleeper.pid} nofile 3 3", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    add("setpriority-outside", "setpriority(PRIO_PROCESS) of a process outside", "pidns+seccomp",
        lambda c: f"{P} setpriority process {c.sleeper.pid} 19", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    add("setpriority-pgrp", "setpriority(PRIO_PGRP) of a process group outside", "pidns+seccomp",
        lambda c: f"{P} setpriority pgrp {c.sleeper.pid} 19", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    add("setaffinity-outside", "sched_setaffinity of a process outside", "pidns+seccomp",
        lambda c: f"{P} setaffinity {c.sleeper.pid}", victim_judge,
        setup=victim_setup, expect={"EPERM"}, needs=need_two_cpus)
    add("setscheduler-outside", "sched_setscheduler(SCHED_BATCH) of a process outside",
        "pidns+seccomp", lambda c: f"{P} setscheduler {c.sleeper.pid}", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    add("setattr-outside", "sched_setattr(SCHED_BATCH) of a process outside", "pidns+seccomp",
        lambda c: f"{P} setattr {c.sleeper.pid}", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    add("ioprio-outside", "ioprio_set(idle) of a process outside", "pidns+seccomp",
        lambda c: f"{P} ioprio {c.sleeper.pid}", victim_judge,
        setup=victim_setup, expect={"EPERM"})
    # lash itself (the probe's parent): RLIMIT_FSIZE 0 would silence its audit log,
    # RLIMIT_CPU kill it; the denial that follows must be recorded
    add("prlimit-lash-fsize", "prlimit RLIMIT_FSIZE 0 on lash, then a denial", "pidns+seccomp",
        lambda c: f"{P} prlimit ppid fsize 0 0 > tok; {FORBIDDEN} >/dev/null 2>&1; cat tok",
        lash_audit_judge, expect={"EPERM"}, peers=False)
    add("prlimit-lash-cpu", "prlimit RLIMIT_CPU 1 s on lash, then a denial", "pidns+seccomp",
        lambda c: f"{P} prlimit ppid cpu 1 1 > tok; {FORBIDDEN} >/dev/null 2>&1; cat tok",
        lash_audit_judge, expect={"EPERM"}, peers=False)
    # a program lifting its own hard limit (max_open_files = 64 sets it to 64): root
    # children lost CAP_SYS_RESOURCE, others never had it; under default 4096 is within
    # the hard limit
    add("rlimit-raise-child", "a program lifts its own RLIMIT_NOFILE to 4096 (hard limit 64)",
        "capabilities(CAP_SYS_RESOURCE)", lambda c: f"{P} prlimit self nofile 4096 4096",
        expect={"EPERM"}, needs=need_cap(24, "CAP_SYS_RESOURCE"))
    # ---- setuid and setgid files, file capabilities (seccomp, CAP_SETFCAP dropped)
    add("setuid-chmod", "copy a program and chmod 4755 it", "seccomp",
        lambda c: f"cp {P} rootsh && chmod 4755 rootsh 2>/dev/null && echo ok || echo refused",
        setid_judge, expect={"refused"})
    add("setgid-chmod", "copy a program and chmod 2755 it", "seccomp",
        lambda c: f"cp {P} rootsh && chmod 2755 rootsh 2>/dev/null && echo ok || echo refused",
        setid_judge, expect={"refused"})
    add("setuid-install", "install -m 4755 a program", "seccomp",
        lambda c: f"install -m 4755 {P} rootsh 2>/dev/null && echo ok || echo refused",
        setid_judge, expect={"refused"})
    add("setgid-install", "install -m 2755 a program", "seccomp",
        lambda c: f"install -m 2755 {P} rootsh 2>/dev/null && echo ok || echo refused",
        setid_judge, expect={"refused"})
    add("setuid-python", "python3 os.chmod(0o4755)", "seccomp",
        lambda c: f"{PY} -c 'import os; open(\"r\", \"w\").close(); os.chmod(\"r\", 0o4755); "
                  f"print(\"ok\")' 2>/dev/null || echo refused", setid_judge, expect={"refused"})
    add("setuid-fchmodat2", "fchmodat2(4755)", "seccomp",
        lambda c: f"touch f; {P} fchmodat2-mode f 4755", setid_judge, expect={"EPERM"})
    add("setuid-open", "open(O_CREAT, 04755)", "seccomp",
        lambda c: f"{P} create-mode rootsh 4755", setid_judge, expect={"EPERM"})
    add("setgid-open", "open(O_CREAT, 02755)", "seccomp",
        lambda c: f"{P} create-mode rootsh 2755", setid_judge, expect={"EPERM"})
    add("setuid-openat2", "openat2(O_CREAT, 04755)", "seccomp",
        lambda c: f"{P} openat2-mode rootsh 4755", setid_judge, expect={"ENOSYS"})
    add("setuid-mknod", "mknod(S_IFREG | 04755)", "seccomp",
        lambda c: f"{P} mknod-mode rootsh 4755", setid_judge, expect={"EPERM"})
    add("setgid-mknod", "mknod(S_IFREG | 02755)", "seccomp",
        lambda c: f"{P} mknod-mode rootsh 2755", setid_judge, expect={"EPERM"})
    add("filecap-xattr", "write a security.capability xattr (cap_net_raw+ep; root)",
        "capabilities(CAP_SETFCAP)", lambda c: f"cp {P} capped && {P} setfcap capped",
        setid_judge, root=True, expect={"EPERM"})
    add("filecap-python", "python3 os.setxattr security.capability (root)",
        "capabilities(CAP_SETFCAP)",
        lambda c: f"{PY} -c 'import os,struct; open(\"c\", \"w\").close(); "
                  f"os.setxattr(\"c\", \"security.capability\", "
                  f"struct.pack(\"<5I\", 0x02000001, 1 << 13, 0, 0, 0)); print(\"ok\")' "
                  f"2>/dev/null || echo refused", setid_judge, root=True, expect={"refused"})

    add("tiocsti", "TIOCSTI into the controlling terminal", "seccomp",
        lambda c: f"{P} tiocsti", runner_fn=tty_run, expect={"EPERM"}, needs=need_tiocsti)
    add("cgroup-leave", "move into lash's own cgroup (root)", "landlock",
        lambda c: ("sh -c 'echo $$ > %s%s/cgroup.procs'"
                   " && echo ok || echo refused") % (cgroup2_mount(), own_cgroup()),
        root=True, expect={"refused"}, needs=need_cgroup2)

    add("ulimit-raise", "raise ulimit -n in the script, then open 200 files", "rlimit",
        lambda c: f"ulimit -n 4096 2>/dev/null; {P} open-files 200", expect={"EMFILE"})

    add("sysctl-write", "write a global kernel setting (fs.file-max, its own value; root)",
        "landlock", lambda c: f"sh -c 'echo {c.sysctl_value} > {SYSCTL}' && echo ok || "
                              "echo refused",
        setup=sysctl_setup, root=True, expect={"refused"})
    add("read-raw-disk", "read the disk under / (root)", "landlock",
        lambda c: f"{P} open-read {root_disk()}", root=True, needs=need_root_disk,
        expect={"EACCES"})
    add("mknod-disk", "mknod the disk under / in the workspace, read it (root)",
        "capabilities+mount(nodev)",
        lambda c: f"{PY} -c 'import os,stat; d=os.stat(\"/\").st_dev; "
                  f"os.mknod(\"disk\", stat.S_IFBLK|0o600, d); "
                  f"open(\"disk\",\"rb\").read(512); print(\"ok\")' 2>/dev/null || echo refused",
        root=True, needs=need_mknod, expect={"refused"})

    # ---- the shell itself
    add("profile-switch", "profile switch default, then read the secret", "policy",
        lambda c: f"profile switch default 2>/dev/null; {P} grep {q(c.secret)} {SECRET_MARK}",
        expect={"EACCES"}, peers=False)
    add("nested-lash", "a nested lash with the default profile (from sh)", "landlock",
        lambda c: f"sh -c '{q(c.args.lash)} -p default -c \"cat {c.secret}\"'"
                  " && echo ok || echo refused", leaked(SECRET_MARK), expect={"refused"},
        peers=False)
    add("exec-inplace", "exec builtin: replace the shell by an allowlisted program",
        "landlock", lambda c: f"exec {P} grep {q(c.secret)} {SECRET_MARK}",
        expect={"EACCES"})
    add("exit-trap-builtin", "an EXIT trap reads the secret (builtin) as the session ends",
        "landlock(broker)",
        lambda c: f"cat /dev/null; trap 'read v < {c.secret}; echo got:$v' EXIT",
        leaked(SECRET_MARK), expect={"got:"})
    add("exit-trap", "an EXIT trap runs a program as the session ends", "landlock",
        lambda c: f"trap '{P} grep {c.secret} {SECRET_MARK}' EXIT; cat /dev/null",
        expect={"EACCES"})

    # ---- sockets, network, kernel interfaces
    add("unix-abstract", "connect to an abstract unix socket outside", "landlock(scope)",
        lambda c: f"{P} abstract-connect lash-escape-{os.getpid()}",
        setup=lambda c: c.listen_unix(abstract="lash-escape-%d" % os.getpid()),
        expect={"EPERM"})
    add("unix-path", "connect to a pathname unix socket outside", "mount(mask)",
        lambda c: f"{P} unix-connect {q(c.outside)}/agent.sock",
        setup=lambda c: c.listen_unix(path=os.path.join(c.outside, "agent.sock")),
        expect={"ECONNREFUSED", "EACCES"})
    add("unix-deep", "connect to a pathname socket deep in a directory outside",
        "mount(mask/ro)", lambda c: f"{P} unix-connect {q(c.outside)}/a/b/c/d/deep.sock",
        setup=lambda c: c.listen_unix(path=os.path.join(c.outside, "a/b/c/d/deep.sock")),
        expect={"ECONNREFUSED", "EROFS", "EACCES"})
    add("tcp-connect", "TCP connect to a local port not allowed", "landlock(net)",
        lambda c: f"{P} connect 127.0.0.1 {c.port}", setup=lambda c: c.listen_tcp(),
        expect={"EACCES"})
    add("tcp-listen", "listen on a TCP port; a process outside connects", "landlock(net)",
        lambda c: f"{P} listen {c.port} 2", runner_fn=listen_run,
        setup=lambda c: setattr(c, "port", free_port()), expect={"EACCES"})
    add("userns", "create a user namespace", "seccomp",
        lambda c: f"{P} userns", expect={"EPERM"}, needs=need_userns)
    add("mount", "mount a tmpfs (root)", "seccomp",
        lambda c: f"mkdir mnt; {P} mount-at mnt", root=True, expect={"EPERM"})
    add("io-uring", "io_uring_setup", "seccomp",
        lambda c: f"{P} io-uring-setup", expect={"EPERM"}, needs=need_io_uring)

    # ---- documented limits (docs/security.md): run and shown, not counted
    add("limit-hardlink-outside", "a hard link to the secret planted from outside",
        "-", lambda c: "cat hl && echo ok || echo refused", leaked(SECRET_MARK),
        setup=plant_hardlink_outside,
        accepted="Landlock checks paths; a link made by a process outside is a file of "
                 "the grant")
    apply_strict(R)
    return R


def unexpanded(judge):
    """A glob that found nothing is left as written: its token is "unexpanded"."""
    def j(res):
        through, tok = judge(res)
        return through, ("unexpanded" if not through and tok.endswith("/*") else tok)
    return j


# What --strict holds each row to, where the row's own line does not say it: the layer
# that must stop it (stop), its token (expect), the accepted second fences (a layer
# that refuses first, and its token). A refusal with any other token fails under
# --strict. Found by running the matrix as root and as uid 65534: e.g. a write outside
# the grants meets the session's read-only mounts (EROFS) before Landlock (EACCES), and
# a process outside is hidden by the pid namespace (ESRCH) before Landlock's scoping
# or seccomp could refuse (those layers are tested alone by the rows against the
# session's own jobs and by tests/unit/sandbox: seccomp_twin_test.cpp, kernel_test.cpp).
NS_RO = {"namespace": {"EROFS"}}
STRICT = {
    "read-source": dict(expect={"status:2"}),
    "read-source-late": dict(expect={"status:2"}),
    "read-source-path": dict(expect={"status:2"}),
    "read-glob": dict(expect={"unexpanded"}),
    "read-glob-late": dict(expect={"unexpanded"}),
    "read-swap": dict(expect={"refused"}),
    "fd-exec-redir": dict(expect={"status:2"}),
    "fd-inherited-redir": dict(expect={"refused"}),
    "fd-proc-reopen": dict(expect={"refused"}),
    "shell-glob-other": dict(expect={"no-match"}),
    "detach-exit": dict(expect={"gone"}),
    "detach-sigkill": dict(expect={"gone"}),
    "read-proc-cwd": dict(fences={"namespace": {"ENOENT", "ESRCH"}}),
    "read-proc-pid-root": dict(fences={"namespace": {"ENOENT", "ESRCH"}}),
    "other-environ": dict(fences={"namespace": {"ENOENT", "ESRCH"}}),
    "other-fd-proc": dict(fences={"namespace": {"ENOENT", "ESRCH"}}),
    "other-fd-pidfd": dict(fences={"namespace": {"ENOENT", "ESRCH"}}),
    "kill-outside": dict(expect={"EPERM"}, fences={"namespace": {"ESRCH"}}),
    "rename-in": dict(fences={"namespace": {"EXDEV", "EROFS"}}),
    # the escape profile restricts the network, so the session has its own network
    # namespace, and abstract unix names are per network namespace: the listener
    # outside does not exist there (Landlock's scope is tested alone by
    # tests/unit/sandbox/kernel_test.cpp)
    "unix-abstract": dict(fences={"namespace": {"ECONNREFUSED"}}),
    # the shell's string outgrows RLIMIT_AS on lash itself (lash says it cannot
    # allocate: status 2) before the memory cgroup's limit kills it
    "memory-shell": dict(stop="rlimit", expect={"status:2"},
                         fences={"cgroup": {"status:-9", "status:137"}}),
    "memory-shell-nofork": dict(stop="rlimit", expect={"status:2"},
                                fences={"cgroup": {"status:-9", "status:137"}}),
    # limits the CPU cap cannot reach first: the memory, file-size and race rows end
    # by their own layer, not by SIGXCPU, and the races run their whole window
    "memory": dict(limits={"max_cpu_seconds": 60}),
    "file-size": dict(limits={"max_cpu_seconds": 60}),
    "file-size-builtin": dict(limits={"max_cpu_seconds": 60}),
    "open-files": dict(limits={"max_cpu_seconds": 60}),
    "fork-bomb": dict(limits={"max_cpu_seconds": 60}),
    "fork-loop-shell": dict(limits={"max_cpu_seconds": 60}),
    "fork-loop-shell-count": dict(limits={"max_cpu_seconds": 60}),
    "cpu": dict(limits={}),
    "cpu-shell": dict(limits={}),
}
for _rid in ("write-prog", "cache-tamper", "create-outside", "truncate", "rename-out", "mkdir-outside",
             "symlink-outside", "write-symlink-prog", "write-etc", "write-shm", "append-sh", "delete",
             "home-profile"):
    STRICT.setdefault(_rid, {}).setdefault("fences", NS_RO)


def apply_strict(rows):
    ids = {r.id for r in rows}
    for rid in STRICT:
        assert rid in ids or rid.startswith(("sysv-",)), "STRICT names no row %s" % rid
    for r in rows:
        if r.stop == "namespace" and r.expect == {"EPERM"} and "seccomp" in r.layer:
            # pid-addressed calls at a process outside: seccomp refuses any pid but 0
            # first; where the probe reads first (getaffinity, getattr) the pid
            # namespace's ESRCH comes first, an accepted second fence
            r.stop, r.fences = "seccomp", {"namespace": {"ESRCH"}}
        st = STRICT.get(r.id, {})
        if "stop" in st:
            r.stop = st["stop"]
        if "expect" in st:
            r.expect = set(st["expect"])
        if "fences" in st:
            r.fences = {k: set(v) for k, v in st["fences"].items()}
        for toks in r.fences.values():  # a fence's token is not the row's own layer's
            r.expect = r.expect - toks
        if r.id in ("read-glob", "read-glob-late"):
            r.judge = unexpanded(r.judge)
        if "limits" in st:
            r.limits = st["limits"]
        elif r.limits is None and r.stop not in ("rlimit", "cgroup"):
            # Rows about other layers: no process limit (RLIMIT_NPROC counts every
            # process of uid 65534, so jobs left by earlier rows made the shell refuse
            # with "policy" and the probe never ran) and a CPU limit not reached first.
            r.limits = {"max_cpu_seconds": 60, "max_processes": None}
        elif r.limits is None:
            r.limits = {"max_cpu_seconds": 60}


def sysctl(name):
    try:
        with open("/proc/sys/" + name.replace(".", "/")) as f:
            return f.read().strip()
    except OSError:
        return None


def need_file(path):
    return lambda: None if os.path.exists(path) else "%s does not exist" % path


def need_git():
    return None if shutil.which("git") else "git is not installed"


def need_two_cpus():
    return None if len(os.sched_getaffinity(0)) > 1 else "this process may run on one CPU only"


def need_tiocsti():
    if os.getuid() != 0 and sysctl("dev.tty.legacy_tiocsti") == "0":
        return "dev.tty.legacy_tiocsti = 0: TIOCSTI needs CAP_SYS_ADMIN"
    return None


def need_userns():
    if sysctl("user.max_user_namespaces") == "0":
        return "user.max_user_namespaces = 0"
    if os.getuid() != 0 and sysctl("kernel.unprivileged_userns_clone") == "0":
        return "kernel.unprivileged_userns_clone = 0"
    if os.getuid() != 0 and sysctl("kernel.apparmor_restrict_unprivileged_userns") == "1":
        return "kernel.apparmor_restrict_unprivileged_userns = 1"
    return None


def need_io_uring():
    v = sysctl("kernel.io_uring_disabled")
    if v == "2" or (v == "1" and os.getuid() != 0):
        return "kernel.io_uring_disabled = %s" % v
    return None


def need_cap(bit, name):
    """As root: the row tests that lash drops capability BIT; where root itself lacks it
    (a container's bounding set), a dropped capability cannot be told from a missing
    one, and the row is skipped with that reason."""
    def need():
        if os.geteuid() != 0:
            return None
        try:
            with open("/proc/self/status") as f:
                eff = [int(l.split()[1], 16) for l in f if l.startswith("CapEff:")][0]
        except (OSError, IndexError, ValueError):
            return None
        return None if eff & (1 << bit) else "root here has no %s (bounding set): nothing for lash to drop" % name
    return need


def need_ptrace():
    v = sysctl("kernel.yama.ptrace_scope")
    if v == "3" or (v in ("1", "2") and os.getuid() != 0):
        return "kernel.yama.ptrace_scope = %s: only descendants can be traced" % v
    return None


def cgroup2_mount():
    try:
        with open("/proc/self/mountinfo") as f:
            for line in f:
                fields = line.split()
                sep = fields.index("-")
                if fields[sep + 1] == "cgroup2":
                    return fields[4]
    except (OSError, ValueError, IndexError):
        pass
    return None


def need_cgroup2():
    return None if cgroup2_mount() else "no cgroup2 mount"


def root_disk():
    """The block device holding /, as /dev/NAME, or None."""
    d = os.stat("/").st_dev
    try:
        with open("/sys/dev/block/%d:%d/uevent" % (os.major(d), os.minor(d))) as f:
            for line in f:
                if line.startswith("DEVNAME="):
                    return "/dev/" + line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def need_root_disk():
    dev = root_disk()
    if not dev or not os.path.exists(dev):
        return "no block device for / here"
    try:
        os.close(os.open(dev, os.O_RDONLY))
    except OSError as e:
        return "this test cannot open %s itself (%s)" % (dev, os.strerror(e.errno))
    return None


def need_mknod():
    d = tempfile.mkdtemp(prefix="lash-escape-mknod.")
    try:
        node = os.path.join(d, "disk")
        os.mknod(node, stat.S_IFBLK | 0o600, os.stat("/").st_dev)
        os.close(os.open(node, os.O_RDONLY))
        return None
    except OSError as e:
        return "this test cannot mknod and open the disk itself (%s)" % os.strerror(e.errno)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def own_cgroup():
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                if line.startswith("0::"):
                    path = line[3:].strip()
                    return "" if path == "/" else path
    except OSError:
        pass
    return ""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --------------------------------------------------------------------------- main

def landlock_abi():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        v = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
        return v if v > 0 else 0
    except Exception:
        return 0


def one_run(row, args, runner, twin):
    ctx = Ctx(args, runner, row.limits)
    ctx.is_twin = twin
    try:
        if row.setup:
            row.setup(ctx)
        cmd = "echo %s; " % ALIVE + row.cmd(ctx).replace("@PROBE@", q(args.probe))
        env = runner.env(ctx)
        argv = runner.twin_argv(ctx, cmd) if twin else runner.argv(ctx, cmd)
        before = ctx.snapshot()
        (rc, out, err), extra = row.runner_fn(row, ctx, argv, env)
        res = Res(rc, out, err, ctx, before, extra)
        through, tok = generic(row, res)
        if not res.alive:
            through, tok = False, "not-run"
        return through, tok, res
    finally:
        ctx.teardown()


def delegate_cgroup_to_nobody():
    """As a system would for a user session (systemd's Delegate=): cgroups (v2, and the
    v1 pids and memory hierarchies of a hybrid host) owned by uid 65534 with this
    process in them (tests/harness/delegate.py)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness"))
    import delegate  # noqa: E402
    kinds = delegate.delegate(65534, "lash-escape-nobody-%d" % os.getpid())
    print("delegated to uid 65534: %s" % (", ".join(kinds) or "nothing"))


def reexec_as_nobody():
    if os.getuid() != 0:
        print("SKIP: not root, the main run is already unprivileged")
        return SKIP
    setpriv = shutil.which("setpriv")
    if not setpriv:
        print("SKIP: setpriv (util-linux) missing")
        return SKIP
    # The caller's python3 may live where uid 65534 cannot read it (pyenv under /root).
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    argv = [a for a in sys.argv[1:] if a != "--as-nobody"]
    for i, a in enumerate(argv):
        if a in ("--lash", "--probe", "--json") and i + 1 < len(argv):
            argv[i + 1] = os.path.abspath(argv[i + 1])
    sys.stdout.flush()
    os.chdir("/tmp")
    os.environ.pop("TMPDIR", None)
    delegate_cgroup_to_nobody()
    os.execv(setpriv, [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", py,
                       os.path.abspath(__file__)] + argv)


CONTROL = [
    ("probe", "@PROBE@ open-read mine"),
    ("cat", "cat mine"),
    ("builtin-read", "read v < mine; echo \"$v\""),
    ("builtin-write", "echo x > made && cat made"),
    ("glob", "echo m*"),
    ("sh", "sh -c 'echo from-sh'"),
    ("python3", PY + " -c 'print(\"from-python\")'"),
    ("cp-mv-rm", "cp mine m2 && mv m2 m3 && rm m3 && echo moved"),
    ("ln-mkdir-touch-chmod", "ln -s mine l && mkdir d && touch d/t && chmod 600 d/t && echo made"),
    ("git", "git status --porcelain >/dev/null && echo git-ok"),
    ("sleep", "sleep 0 && echo slept"),
    ("tcp-allowed-port-bind0", "@PROBE@ bind 0"),
    ("install", "install -m 755 mine inst && test -x inst"),
    # the pid-addressed calls on the caller itself (pid 0) work in a session
    ("self-tune", "test \"$(@PROBE@ self-tune)\" = ok"),
    ("self-python", PY + " -c 'import os, resource; resource.setrlimit(resource.RLIMIT_NOFILE, "
                         "resource.getrlimit(resource.RLIMIT_NOFILE)); os.nice(1); "
                         "os.sched_setaffinity(0, os.sched_getaffinity(0)); "
                         "os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0)); "
                         "os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0))'"),
]


def control_failures(args, runner):
    ctx = Ctx(args, runner)
    try:
        script = "; ".join("{ %s; } >/dev/null 2>&1 || echo CONTROL-FAIL:%s" % (c, n)
                           for n, c in CONTROL if n != "git" or shutil.which("git"))
        script = script.replace("@PROBE@", q(args.probe))
        rc, out, err = run_cmd(ctx, runner.argv(ctx, "echo %s; %s" % (ALIVE, script)),
                               runner.env(ctx))
    finally:
        ctx.teardown()
    if ALIVE not in out:
        return ["nothing ran: " + ((err.strip().splitlines() or ["exit %s" % rc])[-1])]
    return [l.split(":", 1)[1] for l in out.splitlines() if l.startswith("CONTROL-FAIL:")]


def sanitizer_build(binary):
    """True when BINARY was built with AddressSanitizer (./dev test's second build)."""
    try:
        with open(binary, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lash", required=True)
    ap.add_argument("--probe", required=True)
    ap.add_argument("--runner", default="lash", choices=sorted(RUNNERS))
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--strict", action="store_true",
                    help="also fail when a refusal's token is not the expected one")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--as-nobody", action="store_true",
                    help="run again as uid 65534 through setpriv (root only, else skip)")
    args = ap.parse_args()
    if args.as_nobody:
        return reexec_as_nobody()
    args.lash = os.path.abspath(args.lash)
    args.probe = os.path.abspath(args.probe)
    global SLOWNESS
    SLOWNESS = measure_slowness()
    print("slowness factor %.2f (waits scaled by it)" % SLOWNESS)
    must = os.environ.get("LASH_MUST_ENFORCE") == "1"
    root = os.getuid() == 0
    runner = RUNNERS[args.runner](args)

    if args.runner == "lash":
        abi = landlock_abi()
        if abi < 6:
            msg = "Landlock ABI %d here; the escape matrix needs 6 (scoping)" % abi
            print(("FAIL: " if must else "SKIP: ") + msg)
            return 1 if must else SKIP
    elif shutil.which(args.runner) is None:
        print("SKIP: %s is not installed" % args.runner)
        return SKIP

    # preflight: the runner must run a harmless command at all
    ctx = Ctx(args, runner)
    try:
        rc, out, err = run_cmd(ctx, runner.argv(ctx, "echo %s" % ALIVE), runner.env(ctx))
    finally:
        ctx.teardown()
    if ALIVE not in out:
        last = (err.strip().splitlines() or ["exit %s" % rc])[-1]
        print("SKIP: %s cannot run a command here: %s" % (args.runner, last))
        if args.runner == "lash":
            print(err)
            return 1
        return SKIP

    # control: what the restricting policy allows must work under it, so that a
    # refusal below cannot come from a tool that does not run at all
    bad = control_failures(args, runner)
    if bad:
        print("FAIL: under %s, allowed actions fail: %s" % (args.runner, "; ".join(bad)))
        return 1

    rows = build_rows()
    if sanitizer_build(args.lash):
        # A sanitizer build of lash sets no RLIMIT_AS, on itself or its children
        # (docs/sandbox.md: ASan reserves terabytes of address space): an allocation
        # then meets only the memory cgroup, which lash joins at its first command and
        # uid 65534 does not have. Shown, not counted; the release build counts them.
        # As uid 65534 that is also true after a first command (memory-shell): the
        # string is then stopped only by max_cpu_seconds (SIGXCPU) when the sanitizer
        # build is slow enough, so its outcome depended on the machine's speed.
        accepted = ("memory", "memory-shell-nofork") + (("memory-shell",) if os.geteuid() != 0 else ())
        for r in rows:
            if r.id in accepted:
                r.accepted = "sanitizer builds set no RLIMIT_AS (docs/sandbox.md)"
    if args.only:
        wanted = set(args.only.split(","))
        rows = [r for r in rows if r.id in wanted]
    t0 = time.monotonic()
    table, failures, notes, skipped = [], [], [], []
    for row in rows:
        if row.root and not root:
            skipped.append((row.id, "needs root"))
            continue
        why = row.needs() if row.needs else None
        if why:
            skipped.append((row.id, why))
            continue
        if not row.peers and args.runner != "lash":
            skipped.append((row.id, "lash-specific (lash's own /proc entries)"))
            continue
        t1 = time.monotonic()
        through, tok, res = one_run(row, args, runner, twin=False)
        t_through, t_tok, t_res = one_run(row, args, runner, twin=True)
        # A row that did not run, or whose twin failed, says nothing about the
        # sandbox (a loaded machine once kept a detached probe from starting within
        # its wait): it is run once more, and said. A let-through is never retried,
        # nor is a run lash refused with "policy" (a session that could not be set
        # up, e.g. "cannot join the session cgroup", fails the row: such a refusal
        # once came from the harness's cgroup remover, tests/harness/delegate.py).
        if (tok == "not-run" and not through) or not t_through:
            first = "%s: run %s, twin %s" % (row.id, tok, t_tok)
            for label, r in (("run", res), ("twin", t_res)):
                print("--- retry of %s, first %s: rc=%s token=%s" % (row.id, label, r.rc, r.token))
                if r.err.strip():
                    print("    stderr: " + r.err.strip()[-600:].replace("\n", "\n    "))
            through, tok, res = one_run(row, args, runner, twin=False)
            t_through, t_tok, t_res = one_run(row, args, runner, twin=True)
            notes.append("%s; retried once: run %s, twin %s" % (first, tok, t_tok))
        secs = time.monotonic() - t1
        verdict = "refused"
        if tok == "not-run":
            verdict = "NOT RUN"
            failures.append("%s: the runner did not run the command" % row.id)
        if not t_through:
            verdict = "BROKEN"
            failures.append("%s: the twin (default profile) did not succeed: %s"
                            % (row.id, t_tok))
        # A documented limit (accepted) stays one whatever lash warned.
        degraded = (through and args.runner == "lash" and row.degraded and not row.accepted
                    and row.degraded in res.err)
        if degraded:
            verdict = "degraded"
            msg = "%s: let through, and lash said why: %s" % (row.id, row.degraded)
            if must:
                failures.append(msg)
            else:
                notes.append(msg)
        elif through:
            verdict = "accepted" if row.accepted else "LET THROUGH"
            if not row.accepted:
                failures.append("%s: let through (%s)" % (row.id, tok))
        elif args.runner == "lash" and not row.accepted:
            expect = row.expect
            if row.nobody_expect is not None and os.geteuid() != 0:
                expect = row.nobody_expect
            fence = [k for k, v in row.fences.items() if tok in v]
            if not expect:
                notes.append("%s: refused with %s; the row names no token for %s"
                             % (row.id, tok, row.stop))
                if args.strict:
                    failures.append(notes[-1])
            elif tok in expect:
                pass
            elif fence:
                notes.append("%s: refused with %s by %s, an accepted second fence (%s did not stop it)"
                             % (row.id, tok, fence[0], row.stop))
            else:
                notes.append("%s: refused with %s, not by %s (expected %s)"
                             % (row.id, tok, row.stop, "/".join(sorted(expect))))
                if args.strict:
                    failures.append(notes[-1])
        table.append({"id": row.id, "desc": row.desc, "layer": row.layer, "stop": row.stop,
                      "result": tok, "twin": t_tok, "verdict": verdict,
                      "let_through": bool(through) and not degraded,
                      "degraded": bool(degraded), "accepted": bool(row.accepted),
                      "broken": not t_through or tok == "not-run",
                      "seconds": round(secs, 2)})
        if args.verbose or (through and not row.accepted) or not t_through:
            for label, r in (("run", res), ("twin", t_res)):
                print("--- %s %s: rc=%s token=%s changed=%s (%.2f s both)" % (
                    row.id, label, r.rc, r.token, r.changed[:3], secs))
                if r.out.strip():
                    print("    stdout: " + r.out.strip()[-400:].replace("\n", "\n    "))
                if r.err.strip():
                    print("    stderr: " + r.err.strip()[-600:].replace("\n", "\n    "))
    elapsed = time.monotonic() - t0

    w = max([len(t["id"]) for t in table] + [2])
    print("%-*s  %-12s  %-14s  %-12s  %s" % (w, "id", "stopped by", args.runner, "twin", "verdict"))
    for t in table:
        print("%-*s  %-12s  %-14s  %-12s  %s" % (w, t["id"], t["stop"][:12],
                                                t["result"][:14], t["twin"][:12],
                                                t["verdict"]))
    for s in skipped:
        print("skipped %s: %s" % s)
    for n in notes:
        print("note: " + n)
    counted = [t for t in table if not t["accepted"] and not t["degraded"]]
    let = [t for t in counted if t["let_through"]]
    broken = [t for t in table if t["broken"]]
    acc = [t for t in table if t["accepted"] and t["let_through"]]
    print("runner %s as uid %d, %.1f s" % (args.runner, os.getuid(), elapsed))
    if acc:
        print("documented limits let through (not counted): " + ", ".join(t["id"] for t in acc))
    deg = [t["id"] for t in table if t["degraded"]]
    if deg:
        print("degraded on this machine, as lash warned (not counted): " + ", ".join(deg))
    if broken:
        print("broken rows (twin failed): " + ", ".join(t["id"] for t in broken))
    print("%d attempts, %d let through" % (len(counted), len(let)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"runner": args.runner, "uid": os.getuid(), "rows": table,
                       "skipped": skipped, "attempts": len(counted),
                       "let_through": len(let), "seconds": round(elapsed, 1)}, f, indent=1)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
