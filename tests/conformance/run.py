#!/usr/bin/env python3
"""Differential conformance runner: each case runs under lash and under its reference
shells; stdout, the class of stderr (empty / not empty) and the exit status must agree.

    run.py LASH [--quick] [--area AREA] [--show N] [--min PCT]

Case files are cases/*.cases. A file starts with `# mode: posix` or `# mode: bash`;
cases are separated by lines `### NAME`. The text of a case is a script.

  posix cases: lash --posix, dash and bash --posix run it. The reference is the
               answer dash and bash --posix agree on; a case where they disagree is
               counted apart (POSIX decides there; see docs/usage.md "Modes").
  bash cases:  lash (extensions on) and bash run it; bash is the reference.

Prints agreement per area (the file name). --quick takes every 7th case (for CI);
--min fails (exit 1) when an area's agreement is below PCT percent.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    mode = "posix"
    cases = []
    name, lines = None, []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith("# mode:") and name is None:
                mode = line.split(":", 1)[1].strip()
                continue
            if line.startswith("### "):
                if name is not None:
                    cases.append((name, "".join(lines)))
                name, lines = line[4:].strip(), []
                continue
            if name is not None:
                lines.append(line)
    if name is not None:
        cases.append((name, "".join(lines)))
    return mode, cases


def run(argv, script, work):
    path = os.path.join(work, "case.sh")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(script)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": work, "LC_ALL": "C", "TERM": "dumb"}
    try:
        p = subprocess.run(argv + [path], cwd=work, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=10)
        return (p.stdout, bool(p.stderr.strip()), p.returncode)
    except subprocess.TimeoutExpired:
        return (b"<timeout>", True, -1)
    finally:
        for entry in os.listdir(work):
            full = os.path.join(work, entry)
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                os.unlink(full)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    lash = os.path.abspath(argv[1])
    quick = "--quick" in argv
    area_only = argv[argv.index("--area") + 1] if "--area" in argv else None
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 0
    min_pct = float(argv[argv.index("--min") + 1]) if "--min" in argv else None
    dash = shutil.which("dash")
    bash = shutil.which("bash")
    if not dash or not bash:
        print("SKIP: dash and bash are both needed")
        return 77
    work = tempfile.mkdtemp(prefix="lash-conf-")
    total_ok = total = 0
    failed_area = False
    try:
        for path in sorted(glob.glob(os.path.join(HERE, "cases", "*.cases"))):
            area = os.path.basename(path)[:-6]
            if area_only and area != area_only:
                continue
            mode, cases = load(path)
            if quick:
                cases = cases[::7]
            ok = n = split = 0
            shown = 0
            for name, script in cases:
                if mode == "bash":
                    ref = run([bash], script, work)
                    got = run([lash], script, work)
                else:
                    d = run([dash], script, work)
                    b = run([bash, "--posix"], script, work)
                    got = run([lash, "--posix"], script, work)
                    if d != b:
                        split += 1
                        continue  # POSIX decides: recorded in docs/usage.md, not scored
                    ref = d
                n += 1
                if got == ref:
                    ok += 1
                elif shown < show:
                    shown += 1
                    print(f"  DIFF {area}/{name}: want {ref!r}\n       got  {got!r}")
            total_ok += ok
            total += n
            pct = 100.0 * ok / n if n else 100.0
            extra = f" ({split} where dash and bash --posix differ, not scored)" if split else ""
            print(f"{area:24s} {mode:5s} {ok:5d}/{n:<5d} {pct:6.1f}%{extra}")
            if min_pct is not None and pct < min_pct:
                failed_area = True
        # Real-world style scripts (scripts/*.sh): the same output and status as bash.
        if not area_only or area_only == "scripts":
            ok = n = 0
            for path in sorted(glob.glob(os.path.join(HERE, "scripts", "*.sh"))):
                with open(path, encoding="utf-8") as f:
                    script = f.read()
                n += 1
                ref = run([bash], script, work)
                got = run([lash], script, work)
                if got == ref:
                    ok += 1
                elif show:
                    print(f"  DIFF scripts/{os.path.basename(path)}: want {ref!r}\n       got  {got!r}")
            total_ok += ok
            total += n
            pct = 100.0 * ok / n if n else 100.0
            print(f"{'scripts':24s} bash  {ok:5d}/{n:<5d} {pct:6.1f}%")
            if min_pct is not None and pct < min_pct:
                failed_area = True
    finally:
        shutil.rmtree(work, ignore_errors=True)
    pct = 100.0 * total_ok / total if total else 100.0
    print(f"{'overall':24s}       {total_ok:5d}/{total:<5d} {pct:6.1f}%")
    return 1 if failed_area else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
