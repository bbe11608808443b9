#!/usr/bin/env python3
"""Real CI jobs under the shipped `ci` profile, compared with plain bash (issue 15).

Each job is a shell script that a CI system would run on a fresh checkout. It runs
twice in a fresh workspace at the same path, with the network cut (a new network
namespace through unshare; without one the run is reported SKIP):

  * under plain bash:              bash -c JOB
  * under lash's ci profile:       lash -p ci -c JOB

and both runs must end with the same exit status and the same artifacts (every file
name left in the workspace; the content too for the files the job names as its
results). A job that does not succeed under bash where it should is broken here, not
evidence: it fails the test.

  ci_jobs.py --lash build/lash [--only NAME,NAME] [--profile ci] [--dogfood SRC] [-v]

--dogfood SRC runs the heavy job alone: lash's own `meson setup`, `ninja` and unit
tests from a copy of the source tree SRC (registered as its own test with a long
timeout). Exit: 0 all jobs agree, 1 a job differs, 77 skipped (no network namespace).
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


# --------------------------------------------------------------------------- jobs
# Each job: setup(work) fills the fresh workspace (as a checkout would), SCRIPT is what
# the CI system runs there, RESULTS the files whose content must also agree, and
# STATUS the exit status the job must have under bash.

class Job:
    def __init__(self, name, setup, script, results=(), status=0, timeout=300, needs=None):
        self.name, self.setup, self.script = name, setup, script
        self.results, self.status, self.timeout, self.needs = results, status, timeout, needs


C_PROGRAM = """#include <stdio.h>
#include "add.h"
int main(void) { printf("%d\\n", add(2, 3)); return add(2, 3) == 5 ? 0 : 1; }
"""


def setup_c_make(w):
    write(f"{w}/add.h", "int add(int a, int b);\n")
    write(f"{w}/add.c", '#include "add.h"\nint add(int a, int b) { return a + b; }\n')
    write(f"{w}/main.c", C_PROGRAM)
    write(f"{w}/t.c", '#include "add.h"\nint main(void) { return add(1, 1) == 2 ? 0 : 1; }\n')
    write(f"{w}/Makefile",
          "CC ?= cc\nall: prog\n"
          "prog: main.o add.o\n\t$(CC) -o $@ main.o add.o\n"
          "t: t.o add.o\n\t$(CC) -o $@ t.o add.o\n"
          "%.o: %.c add.h\n\t$(CC) -O2 -c $< -o $@\n"
          "test: t prog\n\t./t && ./prog > test.log && echo PASS >> test.log\n"
          ".PHONY: all test\n")


# An autotools-style configure: what autoconf generates, by hand (autoconf is not
# installed here). It compiles and runs conftest programs in the build tree.
CONFIGURE = r"""#!/bin/sh
echo "checking for a working C compiler..."
cat > conftest.c <<'EOF'
int main(void) { return 0; }
EOF
${CC:-cc} -o conftest conftest.c || { echo "configure: error: C compiler cannot create executables"; exit 77; }
./conftest || { echo "configure: error: cannot run C compiled programs"; exit 1; }
echo "checking size of long..."
cat > conftest.c <<'EOF'
#include <stdio.h>
int main(void) { printf("%d\n", (int)sizeof(long)); return 0; }
EOF
${CC:-cc} -o conftest conftest.c && SIZEOF_LONG=$(./conftest) || exit 1
echo "checking whether getconf works..."
PAGESIZE=$(getconf PAGESIZE) || exit 1
rm -f conftest conftest.c
printf '#define SIZEOF_LONG %s\n#define HAVE_PAGESIZE 1\n' "$SIZEOF_LONG" > config.h
printf 'all:\n\t$(CC) -o hello hello.c\ncheck: all\n\t./hello > check.log\n' > Makefile
echo "config.status: creating Makefile and config.h" | tee config.log
"""


def setup_configure(w):
    write(f"{w}/configure", CONFIGURE, 0o755)
    write(f"{w}/hello.c", '#include <stdio.h>\n#include "config.h"\n'
          'int main(void) { printf("long=%d\\n", SIZEOF_LONG); return 0; }\n')


def setup_python(w):
    pkg = f"{w}/src/greet"
    write(f"{pkg}/pyproject.toml",
          '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
          '[project]\nname = "greet"\nversion = "1.0"\n\n'
          '[project.scripts]\ngreet = "greet:main"\n')
    write(f"{pkg}/greet/__init__.py", 'def hello():\n    return "hello"\n\n'
          'def main():\n    print(hello())\n')
    write(f"{pkg}/tests/test_greet.py",
          "import unittest\nimport greet\n\n"
          "class T(unittest.TestCase):\n    def test_hello(self):\n"
          "        self.assertEqual(greet.hello(), 'hello')\n")


PYTHON_JOB = f"""set -e
{PY} -m venv --system-site-packages venv
. venv/bin/activate
cd src/greet
python -m pip wheel --no-deps --no-build-isolation --no-index -w ../../dist . > ../../wheel.log 2>&1
python -c 'import setuptools.build_meta as b; b.build_sdist("../../dist")' > ../../sdist.log 2>&1
cd ../..
pip install --no-index --no-deps --no-build-isolation dist/greet-1.0.tar.gz > install-sdist.log 2>&1
pip uninstall -y greet > /dev/null
pip install --no-index --no-deps dist/greet-1.0-py3-none-any.whl > install-wheel.log 2>&1
greet > greet.out
cd src/greet && python -m unittest discover -s tests > ../../unittest.log 2>&1
"""


def setup_git(w):
    origin = f"{w}/origin.git"
    seed = f"{w}/.seed"
    env = dict(os.environ, GIT_AUTHOR_NAME="ci", GIT_AUTHOR_EMAIL="ci@example",
               GIT_COMMITTER_NAME="ci", GIT_COMMITTER_EMAIL="ci@example",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", origin], check=True, env=env)
    subprocess.run(["git", "init", "-q", "-b", "main", seed], check=True, env=env)
    setup_c_make(seed)
    subprocess.run(["git", "-C", seed, "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", seed, "commit", "-qm", "seed"], check=True, env=env)
    subprocess.run(["git", "-C", seed, "push", "-q", origin, "main"], check=True, env=env)
    shutil.rmtree(seed)


GIT_JOB = """set -e
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example
export GIT_AUTHOR_DATE=2026-01-02T00:00:00Z GIT_COMMITTER_DATE=2026-01-02T00:00:00Z
git clone -q origin.git checkout
cd checkout
make test
echo built > BUILD_INFO
git add BUILD_INFO
git commit -qm "ci: record the build"
git log --format=%s > ../log.txt
"""


def setup_runner(w):
    setup_c_make(w)
    write(f"{w}/run-tests.sh", r"""#!/bin/sh
# Builds the test programs into a temporary directory and runs each one from there.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
for t in one two three; do
  printf 'int main(void) { return %s; }\n' "$( [ $t = two ] && echo 0 || echo 0 )" > "$dir/$t.c"
  cc -o "$dir/$t" "$dir/$t.c" || exit 2
  if "$dir/$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
cp "$dir/one" ./copied-one && ./copied-one && pass=$((pass + 1))
echo "pass=$pass fail=$fail" > results.txt
[ "$fail" -eq 0 ]
""", 0o755)


FAILING_JOB = """set -e
make prog
./prog > artifact.txt
echo "partial log" > job.log
./prog --check-that-fails || { echo "tests failed" >> job.log; exit 3; }
"""


def setup_failing(w):
    setup_c_make(w)
    write(f"{w}/main.c", "#include <stdio.h>\n#include <string.h>\n"
          "int main(int c, char **v) { if (c > 1 && strcmp(v[1], \"--check-that-fails\") == 0) "
          "return 1; puts(\"ok\"); return 0; }\n")


def have(prog):
    return shutil.which(prog, path="/usr/local/bin:/usr/bin:/bin") is not None


def python_ok():
    if not os.path.exists(PY):
        return f"{PY} is not installed"
    r = subprocess.run([PY, "-c", "import venv, setuptools, wheel, pip"], capture_output=True)
    return None if r.returncode == 0 else "python3 lacks venv, setuptools, wheel or pip"


JOBS = [
    Job("c-make", setup_c_make, "make && make test", results=("test.log",),
        needs=lambda: None if have("make") and have("cc") else "make or cc missing"),
    Job("configure", setup_configure, "./configure && make && make check",
        results=("config.h", "check.log", "config.log"),
        needs=lambda: None if have("make") and have("cc") else "make or cc missing"),
    Job("python-venv", setup_python, PYTHON_JOB, results=("greet.out",), needs=python_ok),
    Job("git-clone-build-commit", setup_git, GIT_JOB, results=("log.txt", "checkout/test.log"),
        needs=lambda: None if have("git") and have("make") else "git or make missing"),
    Job("script-test-runner", setup_runner, "./run-tests.sh", results=("results.txt",),
        needs=lambda: None if have("cc") else "cc missing"),
    Job("fails-on-purpose", setup_failing, FAILING_JOB, results=("artifact.txt", "job.log"),
        status=3, needs=lambda: None if have("make") else "make missing"),
]


def dogfood_job(src, quick=False):
    """lash builds and tests itself under ci: a copy of the tree, meson setup, ninja,
    the unit tests. ccache is pointed into the session's writable places. QUICK builds
    and runs only the syntax unit tests (meson's sanity checks still run)."""
    def setup(w):
        ign = shutil.ignore_patterns("build*", ".git", "subprojects/packagecache")
        shutil.copytree(src, f"{w}/lash", ignore=ign, symlinks=True)
    script = """set -e
export CCACHE_DIR="${TMPDIR:-/tmp}/ccache"
cd lash
meson setup -Dbuildtype=release build > ../setup.log 2>&1 || { tail -20 ../setup.log; exit 1; }
ninja -C build -j2 TARGETS > ../ninja.log 2>&1 || { tail -30 ../ninja.log; exit 1; }
# The kernel unit tests make namespaces and Landlock domains of their own, which ci's
# seccomp filter refuses by design (no new user namespaces): they are left out.
meson test -C build --no-rebuild --num-processes 1 TESTS > ../unit.log 2>&1 || { tail -30 ../unit.log; exit 1; }
echo "unit tests passed" > ../result.txt
"""
    tests = "unit_syntax" if quick else "unit_syntax unit_exec unit_policy unit_sandbox unit_audit unit_builtins"
    script = script.replace("TARGETS", "tests/unit/syntax/unit_syntax" if quick else "")
    script = script.replace("TESTS", tests)
    return Job("dogfood-lash" + ("-quick" if quick else ""), setup, script, results=("result.txt",), timeout=3600,
               needs=lambda: None if have("meson") and have("ninja") else "meson or ninja missing")


# --------------------------------------------------------------------------- running

def artifacts(work, results):
    names = set()
    for root, dirs, files in os.walk(work):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".git")]
        for n in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            names.add(os.path.relpath(os.path.join(root, n), work))
    content = {}
    for r in results:
        p = os.path.join(work, r)
        content[r] = hashlib.sha256(open(p, "rb").read()).hexdigest() if os.path.isfile(p) else None
    return names, content


def run_job(job, argv_prefix, work, env, timeout):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    job.setup(work)
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv_prefix + [job.script], cwd=work, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    dt = time.monotonic() - t0
    names, content = artifacts(work, job.results)
    return rc, out, err, names, content, dt


def net_cut():
    """The prefix that runs a command with no network, or None."""
    for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
        try:
            if subprocess.run(prefix + ["true"], capture_output=True).returncode == 0:
                return prefix
        except OSError:
            pass
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lash", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--profile", default="ci", help="the lash side's profile (ci-strict shows the jobs fail)")
    ap.add_argument("--dogfood", default="", help="lash source tree: run only the dogfood job")
    ap.add_argument("--quick", action="store_true", help="with --dogfood: only the syntax unit tests")
    ap.add_argument("--ci-only", action="store_true",
                    help="run each job under lash only (its status must be the expected one): "
                         "halves a dogfood run on a loaded machine, without the bash twin")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    lash = os.path.abspath(a.lash)
    cut = net_cut()
    if cut is None:
        print("SKIP: cannot make a network namespace here (unshare -n / -rn), so the network cannot be cut")
        return SKIP
    jobs = [dogfood_job(os.path.abspath(a.dogfood), a.quick)] if a.dogfood else JOBS
    if a.only:
        jobs = [j for j in jobs if j.name in a.only.split(",")]
    base = tempfile.mkdtemp(prefix="lash-ci-jobs.")
    os.chmod(base, 0o755)
    home = os.path.join(base, "home")
    os.makedirs(os.path.join(home, ".lash"))
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LASH_HOME": os.path.join(home, ".lash"),
           "LANG": "C", "LC_ALL": "C", "TZ": "UTC", "USER": os.environ.get("USER", "root"),
           "TMPDIR": os.path.join(base, "tmp"), "PYTHONDONTWRITEBYTECODE": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INDEX": "1"}
    os.makedirs(env["TMPDIR"])
    failures = 0
    print("%-24s %-10s %-10s %8s %8s  %s" % ("job", "bash", "lash -p ci", "bash s", "ci s", "verdict"))
    try:
        for job in jobs:
            why = job.needs() if job.needs else None
            if why:
                print("%-24s SKIP: %s" % (job.name, why))
                continue
            work = os.path.join(base, "work")
            l = run_job(job, cut + [lash, "-p", a.profile, "-c"], work, env, job.timeout)
            if a.ci_only:
                ok = l[0] == job.status and all(h is not None for h in l[4].values())
                print("%-24s %-10s %-10s %8s %8.1f  %s" % (job.name, "-", l[0], "-", l[5], "ok" if ok else "FAILED"))
                if not ok or a.v:
                    for tag, text in (("stdout", l[1]), ("stderr", l[2])):
                        if text.strip():
                            print(f"    ci {tag}: " + text.strip()[-3000:].replace("\n", "\n      "))
                failures += not ok
                continue
            b = run_job(job, cut + ["bash", "-c"], work, env, job.timeout)
            problems = []
            if b[0] != job.status:
                problems.append(f"broken job: bash status {b[0]}, expected {job.status}")
            if b[0] != l[0]:
                problems.append(f"status bash {b[0]} != ci {l[0]}")
            if b[3] != l[3]:
                problems.append("artifacts differ: only bash %s, only ci %s" %
                                (sorted(b[3] - l[3])[:8], sorted(l[3] - b[3])[:8]))
            if b[4] != l[4]:
                problems.append(f"results differ: bash {b[4]} ci {l[4]}")
            missing = [r for r, h in b[4].items() if h is None]
            if missing:
                problems.append(f"broken job: results {missing} not written under bash")
            verdict = "same" if not problems else "DIFFERENT"
            print("%-24s %-10s %-10s %8.1f %8.1f  %s" % (job.name, b[0], l[0], b[5], l[5], verdict))
            for p in problems:
                print("    " + p)
            if problems or a.v:
                for tag, r in (("bash", b), ("ci", l)):
                    if r[1].strip():
                        print(f"    {tag} stdout: " + r[1].strip()[-1500:].replace("\n", "\n      "))
                    if r[2].strip():
                        print(f"    {tag} stderr: " + r[2].strip()[-1500:].replace("\n", "\n      "))
            failures += bool(problems)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{len(jobs)} jobs, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
