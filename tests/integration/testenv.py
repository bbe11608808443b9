"""Shared pieces of the integration runners (run.py and diff.py).

Both runners give every test a fresh, private environment: a temporary
directory holding HOME, LASH_HOME, TMPDIR and the working directory, removed
afterwards, and an environment stripped of everything from the caller that
could change a shell's behaviour (ENV, CDPATH, IFS, locale, ...).
"""

import os
import re
import shutil
import signal
import subprocess
import tempfile

SKIP = 77

# Variables passed through from the caller; everything else is dropped.
PASS_THROUGH = ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                "MSAN_OPTIONS", "LASH_MUST_ENFORCE", "TERM")

# Text that only appears when the binary crashed or a sanitizer fired.
CRASH_MARKERS = ("AddressSanitizer", "UndefinedBehaviorSanitizer",
                 "LeakSanitizer", "runtime error:", "Segmentation fault",
                 "core dumped", "terminate called", "Assertion `")

CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS,
                 signal.SIGILL, signal.SIGFPE, signal.SIGTRAP)

DEFAULT_TIMEOUT = 20.0


def timeout_factor():
    try:
        return float(os.environ.get("LASH_TEST_TIMEOUT_FACTOR", "1"))
    except ValueError:
        return 1.0


class Sandbox:
    """A fresh temporary tree: root/{home,lash_home,tmp,etc_lash,work}."""

    def __init__(self, name="lashtest"):
        self.root = tempfile.mkdtemp(prefix=name + ".")
        self.reset()

    def reset(self):
        for sub in ("home", "lash_home", "tmp", "etc_lash", "work"):
            path = os.path.join(self.root, sub)
            if os.path.exists(path):
                shutil.rmtree(path, ignore_errors=True)
            os.mkdir(path, 0o700)

    @property
    def work(self):
        return os.path.join(self.root, "work")

    def env(self, extra=None):
        env = {k: os.environ[k] for k in PASS_THROUGH if k in os.environ}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update({
            "HOME": os.path.join(self.root, "home"),
            "LASH_HOME": os.path.join(self.root, "lash_home"),
            "TMPDIR": os.path.join(self.root, "tmp"),
            # An empty system directory: tests never see a real /etc/lash.
            "LASH_TEST_SYSTEM_DIR": os.path.join(self.root, "etc_lash"),
            "PWD": self.work,
            "LC_ALL": "C",
            "LANG": "C",
            "TZ": "UTC",
            "USER": os.environ.get("USER", "root"),
            "LOGNAME": os.environ.get("LOGNAME", os.environ.get("USER", "root")),
        })
        if extra:
            env.update(extra)
        return env

    def remove(self):
        # Tests may leave read-only directories behind; make them writable.
        for dirpath, dirnames, _ in os.walk(self.root):
            for d in dirnames:
                path = os.path.join(dirpath, d)
                # os.walk lists a symlink to a directory among the directories, and
                # chmod follows it: a test's `ln -s /usr build` made /usr mode 0700.
                if os.path.islink(path):
                    continue
                try:
                    os.chmod(path, 0o700)
                except OSError:
                    pass
        shutil.rmtree(self.root, ignore_errors=True)


class Result:
    def __init__(self, status, out, err, timed_out, elapsed=0.0):
        self.status = status
        self.out = out
        self.err = err
        self.timed_out = timed_out

    def crash_reason(self):
        """Why this looks like a crash, or None."""
        if self.timed_out:
            return None
        if self.status < 0 and -self.status in [int(s) for s in CRASH_SIGNALS]:
            return "killed by signal %s" % signal.Signals(-self.status).name
        if self.status > 128 and self.status - 128 in [int(s) for s in CRASH_SIGNALS]:
            # A /bin/sh wrapper reports a child's signal death as 128+N.
            return "exit status %d (signal %s)" % (
                self.status, signal.Signals(self.status - 128).name)
        text = self.err.decode("utf-8", "replace")
        for marker in CRASH_MARKERS:
            if marker in text:
                return "stderr contains %r" % marker
        return None


def run(argv, cwd, env, stdin_bytes=b"", timeout=DEFAULT_TIMEOUT, shell=False):
    """Runs argv in its own session; kills the whole group on timeout."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, shell=shell,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(stdin_bytes, timeout=timeout * timeout_factor())
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    # Background children left behind by the test would otherwise linger.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return Result(proc.returncode, out, err, timed_out)


DIRECTIVE = re.compile(r"^\s*#\s*([A-Z][A-Z-]*):(?: ?)(.*)$")


def parse_directives(text):
    """Returns a list of (lineno, name, value) for `# NAME: value` lines."""
    found = []
    for lineno, line in enumerate(text.split("\n"), 1):
        m = DIRECTIVE.match(line)
        if m:
            found.append((lineno, m.group(1), m.group(2).rstrip("\r")))
    return found


def show(data, limit=4000):
    text = data.decode("utf-8", "backslashreplace")
    if len(text) > limit:
        text = text[:limit] + "\n... (%d more characters)" % (len(text) - limit)
    return text
