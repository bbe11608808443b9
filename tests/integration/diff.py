#!/usr/bin/env python3
"""Differential test: runs one script under a reference shell and under lash.

    diff.py REFERENCE_SHELL LASH_BINARY SCRIPT     exit 0 same, 1 differs, 77 skip

Both shells run `SHELL SCRIPT` with the same environment, the same stdin
(/dev/null unless the script has `# STDIN:` lines) and the same working
directory path (emptied between the two runs), so anything that prints $PWD
or creates files behaves the same. Stdout and the exit status must be equal.
Stderr is not compared (messages are worded differently), but lash's stderr
must not show a crash or a sanitizer report.

Directives understood in the script (see docs/testing.md):
    # REQUIRES: cond     /bin/sh condition; false -> skip
    # STDIN: text        fed on stdin (lines joined with newlines)
    # TIMEOUT: seconds   default 20
A shell argument may carry options: "bash --posix" is split on spaces, which
is how the scripts are checked before lash exists.
The environment variable TESTSH holds the shell under test, so a script can
start a child shell of the same kind (`$TESTSH -c ...`).
"""

import difflib
import os
import shlex
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testenv  # noqa: E402


def run_one(shell_argv, script, box, stdin, timeout):
    box.reset()
    env = box.env({"TESTSH": " ".join(shell_argv)})
    return testenv.run(shell_argv + [script], box.work, env, stdin, timeout)


def main(argv):
    if len(argv) != 4:
        print("usage: diff.py REFERENCE_SHELL LASH_BINARY SCRIPT", file=sys.stderr)
        return 2
    ref = shlex.split(argv[1])
    lash = shlex.split(argv[2])
    # The reference shell is looked up here, not by meson: a missing dash makes every
    # posix test a SKIP with this reason instead of a suite that silently disappears.
    if not (os.path.isfile(ref[0]) and os.access(ref[0], os.X_OK)):
        found = shutil.which(ref[0])
        if not found:
            print("SKIP: reference shell %r is not installed (apt-get install %s)"
                  % (ref[0], os.path.basename(ref[0])))
            return testenv.SKIP
        ref[0] = found
    if os.path.exists(lash[0]):
        lash[0] = os.path.abspath(lash[0])
    script = os.path.abspath(argv[3])
    with open(script, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    stdin = b""
    timeout = testenv.DEFAULT_TIMEOUT
    requires = []
    for _, name, value in testenv.parse_directives(text):
        if name == "STDIN":
            stdin += value.encode("utf-8", "surrogateescape") + b"\n"
        elif name == "TIMEOUT":
            timeout = float(value)
        elif name == "REQUIRES":
            requires.append(value)

    # The same path for both runs: create it once, reset it between runs.
    box = testenv.Sandbox("lash-diff")
    try:
        for cond in requires:
            r = testenv.run(["/bin/sh", "-c", cond], box.work, box.env(), timeout=timeout)
            if r.status != 0:
                print("SKIP: requirement not met: %s" % cond)
                return testenv.SKIP
        want = run_one(ref, script, box, stdin, timeout)
        got = run_one(lash, script, box, stdin, timeout)
    finally:
        box.remove()

    name = os.path.basename(script)
    problems = []
    if want.timed_out:
        problems.append("reference shell %s timed out (the script is broken)" % ref[0])
    if got.timed_out:
        problems.append("TIMEOUT: lash did not finish within %gs" % (timeout * testenv.timeout_factor()))
    crash = got.crash_reason()
    if crash:
        problems.append("CRASH: %s" % crash)
    if want.status != got.status:
        problems.append("exit status: %s %d, lash %d" % (ref[0], want.status, got.status))
    if want.out != got.out:
        a = want.out.decode("utf-8", "backslashreplace").split("\n")
        b = got.out.decode("utf-8", "backslashreplace").split("\n")
        problems.append("stdout differs (- %s, + lash):" % ref[0])
        problems += [l for l in difflib.unified_diff(a, b, ref[0], "lash", lineterm="", n=2)][2:]
    if not problems:
        print("PASS: %s" % name)
        return 0
    print("FAIL: %s" % script)
    print("\n".join(problems))
    print("--- lash stderr ---\n%s" % testenv.show(got.err, 2000))
    print("--- %s stderr ---\n%s" % (ref[0], testenv.show(want.err, 2000)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
