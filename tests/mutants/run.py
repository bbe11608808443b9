#!/usr/bin/env python3
"""Mutation testing of lash's security rules: does some test fail without each rule?

    run.py [--only NAME,NAME] [--list] [--keep] [--no-baseline] [--scratch DIR]

Each mutant in mutants.txt (next to this file) is one small edit of security code
(drop a Landlock right, skip the seccomp install, pass a denied variable...), made by
a short pattern that must occur exactly once in its file: when the code has moved on
and the pattern is gone, the run fails loudly instead of testing nothing. A scratch
copy of the tree (tracked and new files) is built once in DIR/tree/build; each mutant is
applied, the targets its checks need are rebuilt incrementally (ccache), its checks
run, and the file is put back. A mutant is caught when one of its checks fails (exit
status other than 0 and 77); it survived when all pass or skip. A mutant that does
not compile is an error of the list, not a catch.

First, unless --no-baseline, every check runs on the unmutated copy and must pass:
a check that fails anyway would catch every mutant.

Checks (each line of a mutant's "check:"):
  kernel FILTER          unit_sandbox_kernel -tc=FILTER as root
  kernel-nobody FILTER   the same as uid 65534 with delegated cgroups
  unit BINARY FILTER     a doctest binary under build/tests/unit (e.g. policy/unit_policy)
  escape IDS             escape_matrix.py --strict --only IDS as root
  escape-nobody IDS      the same as uid 65534
  lash-c TEXT => WANT    build/lash -c TEXT (restricted profile) must print WANT
  lash-test FILE         one integration .lash file through tests/integration/run.py
  meson NAME             meson test NAME

Ends with "N caught, M survived" and the survivors by name (exit 1 if any survived).
Slow (a build per mutant): not part of `./dev test`; `./dev mutants` runs it.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIST = os.path.join(HERE, "mutants.txt")
CHECK_TIMEOUT = 240  # a hang (a CPU burner without RLIMIT_CPU) is a failure, as meson's timeout would say


class Mutant:
    def __init__(self, name):
        self.name = name
        self.file = None
        self.edits = []   # (find, replace)
        self.checks = []  # [kind, arg]
        self.why = ""     # what the mutation breaks


def unescape(s):
    return s.replace("\\n", "\n").replace("\\t", "\t")


def parse(path):
    out, cur, pending_find = [], None, None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("== "):
                cur = Mutant(line[3:].strip())
                out.append(cur)
                continue
            if cur is None or ":" not in line:
                raise SystemExit("%s:%d: expected '== NAME' or 'key: value'" % (path, n))
            key, val = line.split(":", 1)
            key, val = key.strip(), val[1:] if val.startswith(" ") else val
            if key == "file":
                cur.file = val.strip()
            elif key == "find":
                pending_find = unescape(val)
            elif key == "replace":
                if pending_find is None:
                    raise SystemExit("%s:%d: replace without find" % (path, n))
                cur.edits.append((pending_find, unescape(val)))
                pending_find = None
            elif key == "check":
                kind, _, arg = val.strip().partition(" ")
                cur.checks.append((kind, arg.strip()))
            elif key == "why":
                cur.why = val.strip()
            else:
                raise SystemExit("%s:%d: unknown key %s" % (path, n, key))
    for m in out:
        if not m.file or not m.edits or not m.checks:
            raise SystemExit("mutant %s: needs file, find/replace and check" % m.name)
    names = [m.name for m in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit("duplicate mutant names: %s" % ", ".join(sorted(dup)))
    return out


def sh(cmd, cwd=None, timeout=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, env=env)
    return p.returncode, p.stdout.decode(errors="replace")


def copy_tree(scratch):
    """Tracked and new (not ignored) files of the repository into SCRATCH/tree."""
    tree = os.path.join(scratch, "tree")
    rc, out = sh(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    if rc != 0:
        raise SystemExit("git ls-files failed: " + out)
    files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    for f in files:
        dst = os.path.join(tree, f)
        src = os.path.join(ROOT, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        # only rewrite what changed: ninja then rebuilds only that
        try:
            with open(src, "rb") as a, open(dst, "rb") as b:
                if a.read() == b.read():
                    continue
        except OSError:
            pass
        shutil.copy2(src, dst)
    return tree


def targets_for(checks):
    t = {"lash", "tests/helpers/lash-probe"}
    for kind, arg in checks:
        if kind.startswith("kernel"):
            t.add("tests/unit/sandbox/unit_sandbox_kernel")
        elif kind == "unit":
            t.add("tests/unit/" + arg.split()[0])
        elif kind == "meson":
            return None  # meson test builds what it needs
    return sorted(t)


def build(builddir, targets):
    cmd = ["nice", "-n", "19", "ninja", "-C", builddir, "-j2"] + (targets or [])
    return sh(cmd, timeout=3600)


def run_check(kind, arg, tree, builddir):
    """(status, output) of one check; 0 pass, 77 skip, other fail."""
    py = sys.executable
    kernel = os.path.join(builddir, "tests/unit/sandbox/unit_sandbox_kernel")
    lash = os.path.join(builddir, "lash")
    probe = os.path.join(builddir, "tests/helpers/lash-probe")
    matrix = os.path.join(tree, "tests/integration/sandbox/escape_matrix.py")
    delegate = os.path.join(tree, "tests/harness/delegate.py")
    env = dict(os.environ, LASH_MUST_ENFORCE="1")
    nice = ["nice", "-n", "19"]
    if kind == "kernel":
        cmd = nice + [kernel, "-tc=" + arg] if arg else nice + [kernel]
    elif kind == "kernel-nobody":
        cmd = nice + [py, delegate, "--", kernel] + (["-tc=" + arg] if arg else [])
    elif kind == "unit":
        binary, _, flt = arg.partition(" ")
        cmd = nice + [os.path.join(builddir, "tests/unit", binary)] + (["-tc=" + flt] if flt else [])
    elif kind in ("escape", "escape-nobody"):
        cmd = nice + [py, matrix, "--strict", "--lash", lash, "--probe", probe, "--only", arg]
        if kind == "escape-nobody":
            cmd.insert(len(nice) + 2, "--as-nobody")
    elif kind == "lash-c":
        text, _, want = arg.partition(" => ")
        rc, out = sh(nice + [lash, "-c", text], cwd="/tmp", timeout=120, env=env)
        return (0 if out.strip() == want.strip() else 1), out
    elif kind == "lash-test":
        cmd = nice + [py, os.path.join(tree, "tests/integration/run.py"), lash, os.path.join(tree, arg)]
    elif kind == "meson":
        cmd = nice + ["meson", "test", "-C", builddir, "--no-rebuild", arg]
    else:
        return 2, "unknown check kind " + kind
    try:
        st, out = sh(cmd, cwd="/tmp", timeout=CHECK_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % CHECK_TIMEOUT
    # a doctest filter that matches nothing passes without testing anything
    if kind in ("kernel", "kernel-nobody", "unit") and st == 0 and re.search(r"test cases:\s+0 \|", out):
        return 3, "the filter %r matched no test case\n%s" % (arg, out)
    return st, out


def apply(m, tree):
    path = os.path.join(tree, m.file)
    with open(path) as f:
        orig = f.read()
    text = orig
    for find, repl in m.edits:
        n = text.count(find)
        if n != 1:
            return orig, "pattern found %d times in %s (must be once): %r" % (n, m.file, find[:80])
        text = text.replace(find, repl)
    with open(path, "w") as f:
        f.write(text)
    return orig, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--scratch", default="/tmp/lash-mutants")
    ap.add_argument("--builddir", default="", help="default: SCRATCH/tree/build")
    args = ap.parse_args()
    mutants = parse(LIST)
    if args.list:
        for m in mutants:
            print("%-32s %s" % (m.name, m.why))
        print("%d mutants" % len(mutants))
        return 0
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {m.name for m in mutants}
        if unknown:
            raise SystemExit("no such mutant: " + ", ".join(sorted(unknown)))
        mutants = [m for m in mutants if m.name in want]
    if os.geteuid() != 0:
        print("note: not root: the as-root checks run as this user, the uid 65534 ones skip")

    os.makedirs(args.scratch, exist_ok=True)
    tree = copy_tree(args.scratch)
    # build/ inside the copy, as in a checkout: the compile commands then name the
    # sources as a checkout's build does (../src/...), so ccache (told to ignore the
    # directory) serves the first build from earlier builds of the same code
    builddir = args.builddir or os.path.join(tree, "build")
    os.environ.setdefault("CCACHE_NOHASHDIR", "1")
    os.environ.setdefault("CCACHE_BASEDIR", tree)
    # A build dir copied with the tree (tar of a checkout and its build/) names the
    # original source dir in its regeneration rule: a meson.build newer than it would
    # reconfigure the original. No mutant edits a meson.build, so it is marked fresh.
    # (ninja compares with the time it recorded, so the meson files are dated back.)
    bn = os.path.join(builddir, "build.ninja")
    if os.path.isfile(bn) and os.path.realpath(builddir).startswith(os.path.realpath(args.scratch)):
        for d, _, names in os.walk(tree):
            for n in names:
                if n in ("meson.build", "meson_options.txt"):
                    os.utime(os.path.join(d, n), (1, 1))
    if not os.path.isfile(os.path.join(builddir, "build.ninja")):
        rc, out = sh(["meson", "setup", builddir, tree], timeout=600)
        if rc != 0:
            print(out)
            raise SystemExit("meson setup of the scratch copy failed")
    # Pattern check for every mutant before any build: a stale pattern fails now.
    stale = []
    for m in mutants:
        path = os.path.join(tree, m.file)
        if not os.path.isfile(path):
            stale.append("%s: no file %s" % (m.name, m.file))
            continue
        text = open(path).read()
        for find, _ in m.edits:
            if text.count(find) != 1:
                stale.append("%s: pattern found %d times in %s: %r" % (m.name, text.count(find), m.file, find[:70]))
    if stale:
        for s in stale:
            print("STALE " + s)
        raise SystemExit("%d mutant patterns no longer match the code: fix tests/mutants/mutants.txt" % len(stale))

    t0 = time.monotonic()
    all_targets = sorted({t for m in mutants for t in (targets_for(m.checks) or [])})
    print("building the unmutated copy in %s ..." % builddir, flush=True)
    rc, out = build(builddir, None)
    if rc != 0:
        print(out[-3000:])
        raise SystemExit("the unmutated copy does not build")
    if not args.no_baseline:
        checks = sorted({c for m in mutants for c in m.checks})
        print("baseline: %d distinct checks on the unmutated copy" % len(checks), flush=True)
        bad = []
        for kind, arg in checks:
            st, out = run_check(kind, arg, tree, builddir)
            if st not in (0, 77):
                bad.append((kind, arg, out))
                print("BASELINE FAIL %s %s\n%s" % (kind, arg, out[-2000:]), flush=True)
        if bad:
            raise SystemExit("%d checks fail without any mutation: they cannot tell a mutant" % len(bad))

    caught, survived, errors = [], [], []
    for i, m in enumerate(mutants, 1):
        t1 = time.monotonic()
        orig, err = apply(m, tree)
        if err:
            errors.append((m.name, err))
            print("[%d/%d] %s: ERROR %s" % (i, len(mutants), m.name, err), flush=True)
            continue
        try:
            rc, out = build(builddir, targets_for(m.checks))
            if rc != 0:
                errors.append((m.name, "does not build"))
                print("[%d/%d] %s: ERROR does not build\n%s" % (i, len(mutants), m.name, out[-1500:]), flush=True)
                continue
            by = bad = None
            for kind, arg in m.checks:
                st, out = run_check(kind, arg, tree, builddir)
                if st == 3 and "matched no test case" in out:
                    bad = "check %s %r matches no test case" % (kind, arg)
                    break
                if st not in (0, 77):
                    by = "%s %s (exit %d)" % (kind, arg, st)
                    break
            if bad:
                errors.append((m.name, bad))
                print("[%d/%d] %s: ERROR %s" % (i, len(mutants), m.name, bad), flush=True)
                continue
            secs = time.monotonic() - t1
            if by:
                caught.append(m.name)
                print("[%d/%d] %s: caught by %s, %.0f s" % (i, len(mutants), m.name, by, secs), flush=True)
            else:
                survived.append(m.name)
                print("[%d/%d] %s: SURVIVED (%s), %.0f s" % (i, len(mutants), m.name, m.why, secs), flush=True)
        finally:
            with open(os.path.join(tree, m.file), "w") as f:
                f.write(orig)
    # leave the scratch build matching the tree again
    build(builddir, all_targets or None)
    print("%.0f s" % (time.monotonic() - t0))
    for n, e in errors:
        print("error: %s: %s" % (n, e))
    if survived:
        print("survivors: " + ", ".join(survived))
    print("%d caught, %d survived%s" % (len(caught), len(survived),
                                        ", %d errors" % len(errors) if errors else ""))
    return 1 if survived or errors else 0


if __name__ == "__main__":
    sys.exit(main())
