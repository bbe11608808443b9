#!/usr/bin/env python3
"""Interactive lash in a pseudo-terminal (issue 20): the real binary, typed at.

    interactive_test.py --lash PATH GROUP

GROUP is one of: editing, jobs, history, completion, login. Every check waits for
output patterns with generous deadlines (never a fixed sleep), so it holds on a loaded
machine. Exit 0 when every case passed, 1 on a failure, 77 (meson's SKIP) when the
group cannot run here, with the reason printed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_harness import Term, Timeout  # noqa: E402

PROMPT = r"\$ |# "
failures = []


def case(name):
    def wrap(fn):
        def run(*a):
            try:
                fn(*a)
                print("PASS", name)
            except (Timeout, AssertionError) as e:
                print("FAIL", name, "\n", e)
                failures.append(name)
        run.__name__ = name
        return run
    return wrap


class Env:
    def __init__(self, lash):
        self.lash = lash
        self.dir = tempfile.mkdtemp(prefix="lash-interactive-")
        os.chmod(self.dir, 0o755)
        self.home = os.path.join(self.dir, "home")
        os.mkdir(self.home, 0o700)
        self.lash_home = os.path.join(self.home, ".lash")

    def env(self, **extra):
        e = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "LASH_HOME": self.lash_home,
            "TERM": "xterm",
            "INPUTRC": os.path.join(self.dir, "inputrc"),
            "LANG": "C.UTF-8",
        }
        e.update(extra)
        return e

    def start(self, *args, **extra):
        t = Term([self.lash, *args], env=self.env(**extra), cwd=self.dir)
        t.expect(PROMPT, 60)
        return t

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def status_is(t, value):
    t.line("echo st=$?")
    t.expect(r"st=%s\b" % value)
    t.expect(PROMPT)


def stop_job(t):
    """^Z, then wait for the Stopped notice; pressed again if none comes within 15 s.
    (A job that loops over `sleep` under dash cannot be stopped reliably by anyone:
    a ^Z that stops dash's vfork child before its exec leaves dash in the kernel's
    vfork wait. The jobs here wait in exec'd programs or in open() instead.)"""
    t.send("\x1a")
    try:
        return t.expect(r"\[\d+\]\+\s+Stopped", 15)
    except Timeout:
        t.send("\x1a")
        return t.expect(r"\[\d+\]\+\s+Stopped", 60)


def wait_for_file(path, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        time.sleep(0.05)
    return False


# ---- editing -----------------------------------------------------------------------

@case("editing: arrow keys and ^A/^E edit the line (not ^[[D printed)")
def editing_keys(env):
    t = env.start()
    try:
        t.send("echo bc")
        t.send("\x1b[D\x1b[D")  # left, left: before "bc"
        t.send("a")
        t.send("\x01")          # ^A: start of line
        t.send("\x1b[3~" * 0)
        t.send("\x05")          # ^E: end
        t.send("d\r")
        t.expect(r"\nabcd\r?\n")
        assert "^[[D" not in t.text(), "arrow key printed literally"
    finally:
        t.close()


@case("editing: ~/.inputrc (INPUTRC) is read, with `$if lash`")
def editing_inputrc(env):
    with open(os.path.join(env.dir, "inputrc"), "w") as f:
        f.write('$if lash\n"\\C-xh": "echo from-inputrc-$((6*7))"\n$endif\n'
                '$if bash\n"\\C-xb": "echo wrong-application"\n$endif\n')
    t = env.start()
    try:
        t.send("\x18h")
        t.send("\r")
        t.expect(r"\nfrom-inputrc-42")
        t.expect(PROMPT)
        t.send("\x18b")
        t.line("true; echo end-$((1+1))")
        t.expect(r"\nend-2")
        assert "wrong-application" not in t.text(), "a `$if bash` binding applied to lash"
    finally:
        t.close()


@case("editing: a command word the profile refuses is shown in red as typed; set -o nohighlight")
def editing_highlight(env):
    t = env.start("-p", "restricted")
    try:
        t.send("env")
        t.expect(r"env")
        deadline = time.monotonic() + 30
        while b"\x1b[31m" not in t.buf and time.monotonic() < deadline:
            t._read(0.2)
        assert b"\x1b[31m" in t.buf, "no red for the refused 'env'"
        t.send("\x15")
        t.line("set -o nohighlight")
        t.expect(PROMPT)
        mark = len(t.buf)
        t.send("env")
        t.expect(r"env")
        t.send("\x15")
        t.line("echo typed-$((2+3))")
        t.expect(r"\ntyped-5")
        assert b"\x1b[31m" not in t.buf[mark:], "red after set -o nohighlight"
        # The twin: an allowed command word is never red.
        t.line("set +o nohighlight")
        t.expect(PROMPT)
        mark = len(t.buf)
        t.send("date")
        t.expect(r"date")
        t.send("\x15")
        t.line("echo typed-$((3+3))")
        t.expect(r"\ntyped-6")
        assert b"\x1b[31m" not in t.buf[mark:], "an allowed command shown red"
    finally:
        t.close()


@case("editing: default prompt shows [profile] user@host:dir$")
def editing_prompt(env):
    t = Term([env.lash], env=env.env(), cwd=env.dir)
    try:
        t.expect(r"\[default\] \S+@\S+:%s[$#] " % os.path.basename(env.dir).join(["\\S*", ""]), 60)
        t.line(r"PS1='<\p|\W|\?|$((1+2))> '")
        t.expect(r"<default\|%s\|0\|3> " % os.path.basename(env.dir))
        # A directory named like a command substitution is shown, never run.
        os.mkdir(os.path.join(env.dir, "$(touch pwned)"))
        t.line("cd '%s'" % os.path.join(env.dir, "$(touch pwned)"))
        t.expect(r"<default\|\$\(touch pwned\)\|0\|3> ")
        assert not os.path.exists(os.path.join(env.dir, "$(touch pwned)", "pwned"))
        assert not os.path.exists(os.path.join(env.dir, "pwned"))
    finally:
        t.close()


@case("editing: multi-line input uses PS2 and runs once complete")
def editing_multiline(env):
    t = env.start()
    try:
        t.line("for i in 1 2; do")
        t.expect(r"> ")
        t.line("echo item-$i")
        t.expect(r"> ")
        t.line("done")
        t.expect(r"item-1\r?\nitem-2")
        t.expect(PROMPT)
        t.line("cat <<EOF")
        t.expect("> ")
        t.line("heredoc-body")
        t.expect("> ")
        t.line("EOF")
        t.expect(r"\nheredoc-body")
    finally:
        t.close()


@case("editing: ^C drops the line, errors return to the prompt with $? set")
def editing_errors(env):
    t = env.start()
    try:
        t.send("echo never-run")
        t.send("\x03")
        t.expect(r"\^C")
        t.expect(PROMPT)
        status_is(t, 130)
        assert "never-run\r\n" not in t.text().replace("echo never-run", ""), "^C ran the line"
        t.line("if then fi")
        t.expect("syntax error")
        status_is(t, 2)
        t.line("cd /nonexistent-dir-xyz")
        t.expect("nonexistent")
        status_is(t, "[12]")
        t.line("unset -v x; echo ${x?unset-var-error}")
        t.expect("unset-var-error")
        status_is(t, 2)
    finally:
        t.close()


@case("editing: a refused command returns to the prompt with 126 and Problem/Suggestion")
def editing_refused(env):
    t = env.start("-p", "restricted")
    try:
        t.expect(r"\[restricted\]", 5) if "[restricted]" not in t.text() else None
        t.line("env")
        t.expect("Problem: .*cannot run 'env'")
        t.expect("Suggestion:")
        status_is(t, 126)
        t.line("echo still-here")
        t.expect(r"\nstill-here")
    finally:
        t.close()


@case("editing: the shell ignores SIGTERM and SIGQUIT and survives ^C and ^\\ at the prompt")
def editing_signals(env):
    t = env.start()
    try:
        t.line("kill -TERM $$; kill -QUIT $$; echo alive-1")
        t.expect(r"\nalive-1")
        t.expect(PROMPT)
        os.kill(t.pid, 15)
        os.kill(t.pid, 3)
        t.send("\x1c")  # ^\
        t.send("\x03")
        t.expect(PROMPT)
        t.line("echo alive-2")
        t.expect(r"\nalive-2")
    finally:
        t.close()


@case("editing: ^D on an empty line exits; set -o ignoreeof keeps the shell")
def editing_eof(env):
    t = env.start()
    try:
        t.line("set -o ignoreeof")
        t.expect(PROMPT)
        t.send("\x04")
        t.expect(r'Use "exit" to leave the shell')
        t.expect(PROMPT)
        t.line("set +o ignoreeof; false")
        t.expect(PROMPT)
        t.send("\x04")
        st = t.wait_exit(30)
        assert st == 1, "exit status %r, want 1 ($? of false)" % st
    finally:
        t.close()


# ---- jobs -----------------------------------------------------------------------------

@case("jobs: ^Z stops the foreground job, jobs lists it, fg resumes it, ^C ends it")
def jobs_stop_fg(env):
    t = env.start()
    try:
        t.line("sh -c 'echo job-\"\"ready; exec sleep 300'")
        t.expect(r"job-ready")
        stop_job(t)
        t.expect(PROMPT)
        status_is(t, 148)
        t.line("jobs -l")
        t.expect(r"\[1\]\+\s+\d+ Stopped\s+sh -c")
        t.expect(PROMPT)
        t.line("fg %1")
        t.expect(r"sh -c 'echo job-.*300'\r?\n")
        # fg hands the terminal over before it prints the job's text: one ^C sent as
        # soon as the text shows reaches the job, not the shell.
        t.send("\x03")
        t.expect(PROMPT, 60)
        status_is(t, 130)
        t.line("jobs; echo listed-end")
        t.expect(r"\nlisted-end")
        assert "Stopped" not in t.text(t.pos - 200)
    finally:
        t.close()


@case("jobs: ^C ends the foreground job only; the rest of the line is not run")
def jobs_ctrl_c(env):
    t = env.start()
    try:
        t.line("sh -c 'echo fg-\"\"ready; exec sleep 300'; echo after-job")
        t.expect(r"fg-ready")
        t.send("\x03")
        t.expect(PROMPT)
        status_is(t, 130)
        assert "\nafter-job" not in t.text(), "the rest of the line ran after ^C"
        t.line("echo shell-alive")
        t.expect(r"\nshell-alive")
    finally:
        t.close()


@case("jobs: bg continues a stopped job; Done is reported before the next prompt")
def jobs_bg_notify(env):
    t = env.start()
    # The job waits in open() of a FIFO, not in a loop of `sleep`: dash starts each
    # sleep with vfork, and a ^Z that stops the vfork child before its exec leaves dash
    # itself unstoppable in the vfork wait (the kernel's, with any shell), so the job
    # never reads as stopped.
    fifo = os.path.join(env.dir, "go")
    os.mkfifo(fifo)
    try:
        t.line("sh -c 'echo bg-\"\"ready; read x < %s; echo finished-\"\"bg'" % fifo)
        t.expect(r"bg-ready")
        stop_job(t)
        t.expect(PROMPT)
        t.line("bg")
        t.expect(r"\[1\]\+ sh -c .* &")
        t.expect(PROMPT)
        with open(fifo, "w") as f:
            f.write("go\n")
        t.expect(r"finished-bg")
        # The notice comes before the next prompt once the job has ended: the job may
        # still be exiting when its last line arrives, so Enter again until it shows.
        for attempt in range(20):
            t.line("")
            try:
                t.expect(r"\[1\]\+\s+Done\s+sh -c", 3)
                break
            except Timeout:
                if attempt == 19:
                    raise
        t.line("sleep 0.1 & wait %1; echo waited=$?")
        t.expect(r"\[1\] \d+")
        t.expect(r"waited=0")
    finally:
        t.close()


@case("jobs: kill %N signals the job's group; wait -n; disown; %string")
def jobs_kill_wait(env):
    t = env.start()
    try:
        t.line("sleep 300 &")
        t.expect(r"\[1\] \d+")
        t.line("sleep 301 &")
        t.expect(r"\[2\] \d+")
        t.line("jobs")
        t.expect(r"\[1\]-\s+Running\s+sleep 300 &")
        t.expect(r"\[2\]\+\s+Running\s+sleep 301 &")
        # %+ is the newest job, %- the one before, %N and %string name one.
        t.line("jobs -p; echo =; jobs -p %+ %- %1 %sleep\\ 301; echo specs-end")
        m = t.expect(r"\n(\d+)\r?\n(\d+)\r?\n=\r?\n(\d+)\r?\n(\d+)\r?\n(\d+)\r?\n(\d+)\r?\nspecs-end")
        first, second = m.group(1), m.group(2)
        assert m.group(3, 4, 5, 6) == (second, first, first, second), m.group(0)
        t.line("kill %?301; wait %2; echo killed=$?")
        t.expect(r"killed=143")
        t.line("disown %1; jobs; echo after-disown")
        t.expect(r"after-disown")
        t.line("kill %1; echo kill-st=$?")
        t.expect(r"kill-st=[12]")
        t.line("(sleep 0.2; exit 7) & sleep 300 & wait -n; echo wait-n=$?")
        t.expect(r"wait-n=7")
        t.line("kill %sleep; echo ok")
        t.expect(r"\nok")
    finally:
        t.close()


@case("jobs: exit with a stopped job warns once; SIGHUP reaches jobs when the shell exits")
def jobs_exit(env):
    t = env.start()
    hup = os.path.join(env.dir, "got-hup")
    try:
        t.line("sh -c 'trap \"echo hup > %s; exit 0\" HUP; echo hup-\"\"ready; while :; do sleep 0.05; done' &" % hup)
        t.expect(r"hup-ready")
        t.line("sh -c 'echo stop-\"\"ready; exec sleep 300'")
        t.expect(r"stop-ready")
        stop_job(t)
        t.expect(PROMPT)
        t.line("exit")
        t.expect("There are stopped jobs.")
        t.expect(PROMPT)
        t.line("exit")
        t.wait_exit(30)
        assert wait_for_file(hup), "the background job got no SIGHUP"
    finally:
        t.close()


@case("jobs: under a profile without job_control_own, jobs is refused (126) and ^Z stops nothing")
def jobs_refused(env):
    t = env.start("-p", "script")
    try:
        t.line("jobs")
        t.expect(r"Problem: .*cannot use 'jobs'")
        t.expect("Suggestion: .*job_control_own")
        status_is(t, 126)
        t.line("sh -c 'echo z-\"\"ready; sleep 1; echo z-\"\"finished'")
        t.expect(r"z-ready")
        t.send("\x1a")
        t.expect(r"z-finished")
        t.expect(PROMPT)
        status_is(t, 0)
    finally:
        t.close()


# ---- history ---------------------------------------------------------------------------

@case("history: shared by two sessions through $LASH_HOME/history; HISTCONTROL")
def history_sessions(env):
    a = env.start()
    b = env.start()
    try:
        a.line("echo from-session-a")
        a.expect(r"\nfrom-session-a")
        a.expect(PROMPT)
        b.line("echo from-session-b")
        b.expect(r"\nfrom-session-b")
        b.expect(PROMPT)
        b.line("HISTCONTROL=ignoreboth")
        b.expect(PROMPT)
        b.line(" echo secret-space")
        b.expect(r"\nsecret-space")
        b.line("echo dup; echo dup")
        b.expect(PROMPT)
        b.line("echo dup; echo dup")
        b.expect(PROMPT)
        b.line("history")
        b.expect(r"HISTCONTROL=ignoreboth\r?\n\s+\d+  echo dup; echo dup\r?\n\s+\d+  history")
        a.line("exit")
        a.wait_exit(30)
        b.line("exit")
        b.wait_exit(30)
        text = open(os.path.join(env.lash_home, "history")).read()
        assert "echo from-session-a" in text and "echo from-session-b" in text, text
        assert "secret-space" not in text, text
        assert text.count("echo dup; echo dup") == 1, text
        c = env.start()
        try:
            c.send("\x1b[A")  # up arrow: the last entry of the shared file
            c.expect(r"exit")
            c.send("\x15")    # ^U: clear
            c.send("\x12from-session-a")  # ^R: search the history
            c.expect(r"echo from-session-a")
            c.send("\x07\x15")  # ^G ^U: leave the search, clear
            c.line("history")
            c.expect(r"echo from-session-a")
        finally:
            c.close()
    finally:
        a.close()
        b.close()


@case("history: two sessions typing at once lose no entry and keep the file whole (flock)")
def history_concurrent(env):
    a = env.start(HISTFILESIZE="1000")
    b = env.start(HISTFILESIZE="1000")
    try:
        # Both sessions write before either waits: the appends and trims race for the lock.
        for i in range(40):
            a.line("echo a-%d" % i)
            b.line("echo b-%d" % i)
        a.expect(r"\na-39")
        b.expect(r"\nb-39")
        a.expect(PROMPT)
        b.expect(PROMPT)
    finally:
        a.close()
        b.close()
    text = open(os.path.join(env.lash_home, "history")).read()
    lines = text.split("\n")
    for who in "ab":
        for i in range(40):
            assert lines.count("echo %s-%d" % (who, i)) == 1, ("echo %s-%d" % (who, i), text[-2000:])
    # Every entry is a marker line then the command: nothing torn or interleaved.
    body = [l for l in lines if l]
    assert all(body[k].startswith("#") and body[k][1:].isdigit() for k in range(0, len(body), 2)), text[-2000:]
    assert all(body[k].startswith("echo ") for k in range(1, len(body), 2)), text[-2000:]
    # The same with HISTFILESIZE=10: the trims race too; exactly the last 10 stay.
    c = env.start(HISTFILESIZE="10")
    d = env.start(HISTFILESIZE="10")
    try:
        for i in range(20):
            c.line("echo c-%d" % i)
            d.line("echo d-%d" % i)
        c.expect(r"\nc-19")
        d.expect(r"\nd-19")
        c.expect(PROMPT)
        d.expect(PROMPT)
    finally:
        c.close()
        d.close()
    body = [l for l in open(os.path.join(env.lash_home, "history")).read().split("\n") if l]
    assert len(body) == 20, body
    assert all(body[k].startswith("#") for k in range(0, 20, 2)), body
    # Which session ran its last commands last is up to the scheduler: the file ends
    # with one of the two last commands, and holds only commands of these sessions.
    assert body[-1] in ("echo c-19", "echo d-19"), body
    assert all(l.startswith(("#", "echo c-", "echo d-")) for l in body), body


@case("history: multi-line entries stay whole; HISTFILESIZE trims the file")
def history_limits(env):
    t = env.start(HISTFILESIZE="3")
    try:
        for i in range(5):
            t.line("echo n%d" % i)
            t.expect(r"\nn%d" % i)
        t.line("if true; then")
        t.expect("> ")
        t.line("echo multi; fi")
        t.expect(r"\nmulti")
        t.expect(PROMPT)
    finally:
        t.close()
    text = open(os.path.join(env.lash_home, "history")).read()
    assert "if true; then\necho multi; fi" in text, text
    assert "echo n0" not in text and "echo n4" in text, text


@case("history: not written under a profile that may not write $LASH_HOME (restricted)")
def history_restricted(env):
    path = os.path.join(env.lash_home, "history")
    if os.path.exists(path):
        os.unlink(path)
    t = env.start("-p", "restricted")
    try:
        t.line("echo restricted-entry")
        t.expect(r"\nrestricted-entry")
        t.expect(PROMPT)
        t.line("history")
        t.expect(r"\d+  echo restricted-entry")  # kept in the session
        t.line("exit")
        t.wait_exit(30)
    finally:
        t.close()
    assert not os.path.exists(path) or "restricted-entry" not in open(path).read()
    # The same under default is written (the twin).
    t = env.start()
    try:
        t.line("echo default-entry")
        t.expect(r"\ndefault-entry")
        t.line("exit")
        t.wait_exit(30)
    finally:
        t.close()
    assert "default-entry" in open(path).read()


# ---- completion ------------------------------------------------------------------------

@case("completion: builtins, variables, files, profile subcommands and names")
def completion_basic(env):
    os.mkdir(os.path.join(env.dir, "subdir-xyz"))
    open(os.path.join(env.dir, "subdir-xyz", "file-in-sub.txt"), "w").close()
    t = env.start()
    try:
        t.send("ech\t")
        t.expect(r"echo ")
        t.send("$LASH_HO\t")
        t.expect(r"\$LASH_HOME ")
        t.send("\r")
        t.expect(env.lash_home)
        t.expect(PROMPT)
        t.send("cat subdir-x\t")
        t.expect(r"subdir-xyz/")
        t.send("file-\t")
        t.expect(r"file-in-sub\.txt ")
        t.send("\x15")
        t.send("profile sw\t")
        t.expect(r"profile switch ")
        t.send("restr\t")
        t.expect(r"restricted ")
        t.send("\x15\r")
        t.expect(PROMPT)
    finally:
        t.close()


@case("completion: commands follow the profile (restricted offers only allowed programs)")
def completion_profiles(env):
    if not shutil.which("dash") or not shutil.which("date"):
        print("  (dash or date missing: checked with what exists)")
    # default: `da` is ambiguous (dash, date, ...): a double Tab lists them.
    t = env.start()
    try:
        t.send("da\t\t")
        t.expect(r"dash")
        t.send("\x15\r")
        t.expect(PROMPT)
    finally:
        t.close()
    # restricted: only date is allowed, so `da` completes to it at once.
    t = env.start("-p", "restricted")
    try:
        t.send("da\t")
        t.expect(r"date ")
        t.send("\x15")
        t.send("dash\t\t")
        t.send("\r")
        t.expect("Problem")
        t.expect(PROMPT)
        assert "dash " not in t.text().split("dash\t")[0] if "dash\t" in t.text() else True
    finally:
        t.close()


@case("editing: Alt-Enter prints the dry run of the line and keeps it")
def editing_dry_run(env):
    t = env.start("-p", "restricted")
    try:
        t.send("env FOO=1 true")
        t.send("\x1b\r")
        t.expect(r"deny")
        t.expect(r"denied")
        t.send("\x15")
        t.line("echo kept-prompt")
        t.expect(r"\nkept-prompt")
    finally:
        t.close()


@case("monitoring: [monitoring] idle_timeout ends an idle shell (TMOUT cannot raise it); max_denials ends the session")
def monitoring_limits(env):
    os.makedirs(os.path.join(env.lash_home, "profiles"))
    with open(os.path.join(env.lash_home, "profiles", "limited.profile"), "w") as f:
        f.write("[inherit]\nfrom = restricted\n[monitoring]\nmax_denials = 2\nidle_timeout = 2\n")
    t = env.start("-p", "limited")
    try:
        t.line("TMOUT=100000")
        t.expect(PROMPT)
        t.expect("timed out waiting for input", 60)
        t.wait_exit(30)
    finally:
        t.close()
    t = env.start("-p", "limited")
    try:
        t.line("env; echo between")
        t.expect(r"\nbetween")
        t.line("(env); echo not-reached")
        t.expect(r"max_denials")
        st = t.wait_exit(30)
        assert st == 126, st
        assert "\nnot-reached" not in t.text()
    finally:
        t.close()
    # The twin: the same refusals under restricted (no limit) leave the shell running.
    t = env.start("-p", "restricted")
    try:
        t.line("env; (env); env; echo still-running")
        t.expect(r"\nstill-running")
    finally:
        t.close()


@case("monitoring: idle_timeout holds at every wait for the terminal: PS2 (open quote, here-doc body), read, read in a subshell")
def monitoring_idle_waits(env):
    pdir = os.path.join(env.lash_home, "profiles")
    os.makedirs(pdir, exist_ok=True)
    with open(os.path.join(pdir, "idle.profile"), "w") as f:
        f.write("[inherit]\nfrom = restricted\n[monitoring]\nidle_timeout = 2\n")
    for typed in ["echo 'abc", "cat <<EOF", "cat <<EOF\nbody", "read x", "read -t 100000 x", "(read x)",
                  "TMOUT=100000; read x"]:
        t = env.start("-p", "idle")
        try:
            for part in typed.split("\n"):
                t.line(part)
            t.expect("timed out waiting for input", 60)
            t.wait_exit(30)
        finally:
            t.close()
    # The twin: without the profile's limit the same read waits and takes its line.
    t = env.start("-p", "restricted")
    try:
        t.line("read x; echo got=$x")
        time.sleep(4)
        t.line("late")
        t.expect(r"got=late")
    finally:
        t.close()


@case("editing: $include in the inputrc is read through the profile: a refused file is skipped (neither echoed nor applied), an allowed one applies")
def editing_inputrc_include(env):
    secret_dir = tempfile.mkdtemp(prefix="lash-secret-")
    try:
        os.chmod(secret_dir, 0o755)
        secret = os.path.join(secret_dir, "secret.txt")
        with open(secret, "w") as f:
            f.write('"\\C-xs": "echo secret-$((3*5))"\nTOPSECRET-1\n')
        os.chmod(secret, 0o644)
        with open(os.path.join(env.home, "keys"), "w") as f:
            f.write('"\\C-xk": "echo keys-$((4*5))"\n')
        with open(os.path.join(env.dir, "inputrc"), "w") as f:
            f.write("  $INCLUDE %s\n$include ~/keys\n" % secret)  # readline ignores case
        # restricted reads neither /tmp outside the working directory: the include is
        # dropped with a warning; ~/keys (under the working directory) applies.
        t = env.start("-p", "restricted")
        try:
            t.line("cat %s; echo cat-st=$?" % secret)
            t.expect(r"cat-st=[1-9]")
            t.expect(PROMPT)
            t.send("\x18k")
            t.send("\r")
            t.expect(r"\nkeys-20")
            t.expect(PROMPT)
            t.send("\x18s")
            t.line("true; echo end-$((1+1))")
            t.expect(r"\nend-2")
            out = t.text()
            assert "TOPSECRET" not in out, "a refused include was echoed"
            assert "secret-15" not in out, "a refused include was applied"
            assert "not read (skipped)" in out, "no warning for the refused include"
        finally:
            t.close()
        # The twin: under default both apply (readline itself reports the bad line).
        t = env.start()
        try:
            t.send("\x18s")
            t.send("\r")
            t.expect(r"\nsecret-15")
            t.expect(PROMPT)
            t.send("\x18k")
            t.send("\r")
            t.expect(r"\nkeys-20")
        finally:
            t.close()
    finally:
        shutil.rmtree(secret_dir, ignore_errors=True)


GROUPS = {
    "editing": [editing_keys, editing_inputrc, editing_inputrc_include, editing_highlight, editing_prompt, editing_multiline, editing_errors, editing_refused, editing_signals,
                editing_eof, editing_dry_run, monitoring_limits,
                monitoring_idle_waits],
    "jobs": [jobs_stop_fg, jobs_ctrl_c, jobs_bg_notify, jobs_kill_wait, jobs_exit, jobs_refused],
    "history": [history_sessions, history_concurrent, history_limits, history_restricted],
    "completion": [completion_basic, completion_profiles],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    ap.add_argument("group", choices=sorted(GROUPS))
    args = ap.parse_args()
    lash = os.path.abspath(args.lash)
    for fn in GROUPS[args.group]:
        env = Env(lash)
        try:
            fn(env)
        finally:
            env.cleanup()
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
