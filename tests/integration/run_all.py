#!/usr/bin/env python3
"""Runs every integration test of this directory without meson, in parallel.

    run_all.py LASH_BINARY [--ref dash] [-j N] [-v] [FILTER...]

FILTER selects files whose path contains it (e.g. `posix/`, `shell/bad_`).
Prints one line per test (PASS/FAIL/SKIP), the failure reports with -v, and
a summary. Exit status 1 when anything failed. Handy while developing; the
official entry points stay `meson test` and `./dev test`.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def collect(filters):
    files = []
    for sub, ext in (("shell", ".lash"), ("posix", ".sh")):
        d = os.path.join(here, sub)
        for name in sorted(os.listdir(d)):
            if name.endswith(ext) and not name.startswith("verdict"):
                rel = os.path.join(sub, name)
                if not filters or any(f in rel for f in filters):
                    files.append(rel)
    return files


def run_one(lash, ref, rel):
    path = os.path.join(here, rel)
    if rel.startswith("posix/"):
        argv = [sys.executable, os.path.join(here, "diff.py"), ref, lash, path]
    else:
        argv = [sys.executable, os.path.join(here, "run.py"), lash, path]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return rel, p.returncode, p.stdout.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lash")
    ap.add_argument("filters", nargs="*")
    ap.add_argument("--ref", default="dash")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-v", action="store_true", help="print failure reports")
    a = ap.parse_args()
    lash = os.path.abspath(a.lash)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    failed = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for rel, rc, out in pool.map(lambda r: run_one(lash, a.ref, r), collect(a.filters)):
            word = {0: "PASS", 77: "SKIP"}.get(rc, "FAIL")
            counts[word] += 1
            print("%s %s" % (word, rel), flush=True)
            if word == "FAIL":
                failed.append(rel)
                if a.v:
                    print("    " + out.rstrip().replace("\n", "\n    "))
    print("%d passed, %d failed, %d skipped" % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
