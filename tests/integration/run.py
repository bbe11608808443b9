#!/usr/bin/env python3
"""Runs one integration test file against the lash binary.

    run.py LASH_BINARY TESTFILE      exit 0 pass, 1 fail, 77 skip

A test file carries its own command line and expectations in comments
(the littlecheck idea from fish, see docs/testing.md):

    # RUN: %lash %s arg1            the command, run by /bin/sh -c (one or more)
    # CHECK: expected stdout line   in order, exact; {{regex}} holes allowed
    # CHECKERR: expected stderr     same, for stderr (no CHECKERR: stderr empty)
    # STATUS: 2                     expected exit status (default 0; "nonzero")
    # REQUIRES: test -e /dev/kvm    /bin/sh condition; false -> skip (77)
    # STDIN: a line of input        joined with newlines, fed on stdin
    # TIMEOUT: 60                   seconds (default 20)
    # STDERR: any                   do not compare stderr (still scanned for
                                    crashes and sanitizer reports)

Substitutions in RUN and REQUIRES: %lash (binary), %s (this file), %T (the
per-test scratch directory, also the working directory), %testdir (directory
of this file), %data (tests/data), %% (a literal %).

Every test runs under a fresh HOME, LASH_HOME and TMPDIR in a temporary
directory that is removed afterwards.
"""

import difflib
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testenv  # noqa: E402

KNOWN = {"RUN", "CHECK", "CHECKERR", "STATUS", "REQUIRES", "STDIN", "TIMEOUT", "STDERR"}


class TestFile:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        with open(self.path, "rb") as f:
            text = f.read().decode("utf-8", "surrogateescape")
        self.runs = []
        self.checks = []      # (lineno, pattern text)
        self.checkerrs = []
        self.status = "0"
        self.requires = []
        self.stdin = None
        self.timeout = testenv.DEFAULT_TIMEOUT
        self.stderr_any = False
        for lineno, name, value in testenv.parse_directives(text):
            if name == "RUN":
                self.runs.append(value)
            elif name == "CHECK":
                self.checks.append((lineno, value))
            elif name == "CHECKERR":
                self.checkerrs.append((lineno, value))
            elif name == "STATUS":
                self.status = value.strip()
            elif name == "REQUIRES":
                self.requires.append(value)
            elif name == "STDIN":
                self.stdin = (self.stdin or "") + value + "\n"
            elif name == "TIMEOUT":
                self.timeout = float(value)
            elif name == "STDERR":
                if value.strip() != "any":
                    raise ValueError("%s:%d: only '# STDERR: any' is known" % (path, lineno))
                self.stderr_any = True
        if not self.runs:
            raise ValueError("%s: no '# RUN:' line" % path)
        if not (self.status.isdigit() or self.status == "nonzero"):
            raise ValueError("%s: bad STATUS %r" % (path, self.status))


def substitute(cmd, subs):
    def repl(m):
        key = m.group(1)
        return "%" if key == "%" else subs[key]
    return re.sub(r"%(%|lash|testdir|data|s|T)", repl, cmd)


def compile_line(pattern):
    """`literal {{regex}} literal` -> a compiled full-match regex."""
    parts = re.split(r"\{\{(.*?)\}\}", pattern)
    rx = ""
    for i, part in enumerate(parts):
        rx += ("(?:%s)" % part) if i % 2 else re.escape(part)
    return re.compile(rx + r"\Z", re.S)


def split_lines(data):
    text = data.decode("utf-8", "backslashreplace")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n") if text else []


def compare(kind, expected, actual):
    """Returns a list of report lines, empty when `actual` matches."""
    ok = len(expected) == len(actual) and all(
        compile_line(p).match(a) for (_, p), a in zip(expected, actual))
    if ok:
        return []
    # Show matched regex lines as the actual text so only real differences
    # appear in the diff.
    shown = []
    first_bad = None
    for i, (lineno, p) in enumerate(expected):
        if i < len(actual) and compile_line(p).match(actual[i]):
            shown.append(actual[i])
        else:
            shown.append(p)
            if first_bad is None:
                first_bad = lineno
    if first_bad is None and expected:
        first_bad = expected[-1][0]
    report = ["%s differs%s:" % (
        kind, " (first mismatch at CHECK on line %d)" % first_bad if first_bad else "")]
    report += [l.rstrip("\n") for l in difflib.unified_diff(
        shown, actual, "expected", "actual", lineterm="", n=3)]
    return report


def main(argv):
    if len(argv) != 3:
        print("usage: run.py LASH_BINARY TESTFILE", file=sys.stderr)
        return 2
    lash = os.path.abspath(argv[1])
    try:
        test = TestFile(argv[2])
    except (OSError, ValueError) as e:
        print("run.py: %s" % e, file=sys.stderr)
        return 1
    here = os.path.dirname(os.path.abspath(__file__))
    box = testenv.Sandbox("lash-it")
    try:
        subs = {
            "lash": shlex.quote(lash),
            "s": shlex.quote(test.path),
            "T": shlex.quote(box.work),
            "testdir": shlex.quote(os.path.dirname(test.path)),
            "data": shlex.quote(os.path.join(os.path.dirname(here), "data")),
        }
        env = box.env({"LASH": lash})
        for cond in test.requires:
            r = testenv.run(["/bin/sh", "-c", substitute(cond, subs)], box.work, env,
                            timeout=test.timeout)
            if r.status != 0:
                print("SKIP: requirement not met: %s" % cond)
                return testenv.SKIP
        failed = False
        for run_line in test.runs:
            box.reset()
            cmd = substitute(run_line, subs)
            stdin = (test.stdin or "").encode("utf-8", "surrogateescape")
            r = testenv.run(["/bin/sh", "-c", cmd], box.work, env, stdin, test.timeout)
            report = []
            if r.timed_out:
                report.append("TIMEOUT after %gs" % (test.timeout * testenv.timeout_factor()))
            crash = r.crash_reason()
            if crash:
                report.append("CRASH: %s" % crash)
            if test.status == "nonzero":
                if r.status == 0:
                    report.append("exit status 0, expected nonzero")
            elif r.status != int(test.status):
                report.append("exit status %d, expected %s" % (r.status, test.status))
            report += compare("stdout", test.checks, split_lines(r.out))
            if not test.stderr_any:
                report += compare("stderr", test.checkerrs, split_lines(r.err))
            if report:
                failed = True
                print("FAIL: %s" % test.path)
                print("command: %s" % cmd)
                print("\n".join(report))
                print("--- full stdout ---\n%s" % testenv.show(r.out))
                print("--- full stderr ---\n%s" % testenv.show(r.err))
        if not failed:
            print("PASS: %s" % os.path.basename(test.path))
        return 1 if failed else 0
    finally:
        box.remove()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
