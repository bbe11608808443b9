"""A small pseudo-terminal driver for lash's interactive tests.

Term starts a program as the session leader of a new pty (so it has a controlling
terminal, job control and the terminal's signals work as for a person typing), sends
keys and waits for output patterns with generous deadlines; never a fixed sleep.
"""
import os
import re
import select
import signal
import struct
import time
import fcntl
import termios

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]|[\x01\x02\r]|\x07")


class Timeout(AssertionError):
    pass


class Term:
    def __init__(self, argv, env=None, cwd=None, rows=40, cols=200):
        pid, fd = os.forkpty()
        if pid == 0:
            try:
                if cwd:
                    os.chdir(cwd)
                os.execve(argv[0], argv, env if env is not None else os.environ)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.buf = b""   # everything read, raw
        self.pos = 0     # what expect() has consumed
        self.status = None

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        os.write(self.fd, data)

    def line(self, text):
        self.send(text + "\r")

    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            raise EOFError
        self.buf += chunk
        return True

    def text(self, since=0):
        return ANSI.sub(b"", self.buf[since:]).decode("utf-8", "replace")

    def expect(self, pattern, timeout=60):
        """Waits until PATTERN (a regex) appears in the output after what earlier
        expects consumed (escape sequences removed); returns the match."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            cleaned = self.text(self.pos)
            m = rx.search(cleaned)
            if m:
                # Consume up to the match's end in raw terms: advance by the raw length
                # whose cleaned form covers m.end().
                self._consume(m.end())
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("pattern %r not seen; output so far:\n%s" % (pattern, cleaned[-3000:]))
            try:
                self._read(min(left, 1.0))
            except EOFError:
                cleaned = self.text(self.pos)
                m = rx.search(cleaned)
                if m:
                    self._consume(m.end())
                    return m
                raise Timeout("EOF before %r; output:\n%s" % (pattern, cleaned[-3000:]))

    def _consume(self, cleaned_len):
        lo, hi = self.pos, len(self.buf)
        # smallest raw end whose cleaned text has at least cleaned_len characters
        while lo < hi:
            mid = (lo + hi) // 2
            if len(self.text(self.pos)[:0]) or len(ANSI.sub(b"", self.buf[self.pos:mid]).decode("utf-8", "replace")) >= cleaned_len:
                hi = mid
            else:
                lo = mid + 1
        self.pos = lo

    def wait_exit(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self._read(0.2)
            except EOFError:
                pass
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = os.waitstatus_to_exitcode(st)
                return self.status
        raise Timeout("the program did not exit; output:\n" + self.text(self.pos)[-3000:])

    def session_members(self):
        """Processes in the shell's session (the shell leads it on its pty): its jobs,
        disowned ones included, which killing the shell alone would leave running."""
        out = []
        for d in os.listdir("/proc"):
            if not d.isdigit() or int(d) == self.pid:
                continue
            try:
                with open("/proc/%s/stat" % d) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[3]) == self.pid:
                        out.append(int(d))
            except (OSError, IndexError, ValueError):
                pass
        return out

    def close(self):
        for pid in self.session_members():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass
