#!/usr/bin/env python3
"""Agreement test: the dry run (`profile test --json`) and a real run must decide the
same actions the same way.

    agree.py LASH_BINARY CORPUS      exit 0 agree, 1 any disagreement

For every `PROFILE COMMAND-LINE` line of CORPUS, in a fresh test environment
(testenv.Sandbox, with agreement/profiles/*.profile as user profiles):
  1. dry:  lash -p default -c 'profile test --json "$1" "$2"' lash PROFILE CMDLINE
  2. real: lash -p PROFILE -c CMDLINE   (the corpus profiles all have monitoring on)
  3. the distinct (kind, target, decision, key) of the dry run's actions must equal those
     of the real run's audit records (counted once each: a loop or a function body is
     walked once by the dry run but runs several times), and the dry verdict must be
     `deny` exactly when the real run wrote a denial.
Only the audit records of the real session are used: records of kind `profile`
(selection events) are not actions of the command line.

A builtin may decide an action only while it runs (`kill PID`: is the process the
session's own? builtin/jobs.cpp): its effects function declares it, and the dry run
reports it `dynamic`. Such a dynamic builtin action stands for the real run's records of
kind `builtin` whose target names the same builtin (its first word), whatever they
decided, and for none. Any other dynamic action is a corpus error.
"""
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import testenv  # noqa: E402

FIELDS = ("kind", "target", "decision", "key")


def read_corpus(path):
    entries = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            profile, _, cmd = line.partition(" ")
            entries.append((lineno, profile, cmd))
    return entries


def tuples(items):
    return sorted({tuple("" if i.get(k) is None else str(i.get(k)) for k in FIELDS) for i in items})


def builtin_word(item):
    """The builtin a record or action of kind builtin is about: "kill" of "kill 1234"."""
    return (item.get("target") or "").split(" ")[0]


def run_entry(lash, profile, cmd):
    """Returns (problems, dry tuples, real tuples)."""
    box = testenv.Sandbox("lash-agree")
    try:
        env = box.env({"LASH": lash})
        os.makedirs(os.path.join(env["LASH_HOME"], "profiles"), exist_ok=True)
        for p in glob.glob(os.path.join(HERE, "profiles", "*.profile")):
            shutil.copy(p, os.path.join(env["LASH_HOME"], "profiles"))
        problems = []
        dry = testenv.run([lash, "-p", "default", "-c", 'profile test --json "$1" "$2"',
                           "lash", profile, cmd], box.work, env)
        if dry.crash_reason() or dry.timed_out:
            return ["dry run crashed: %s" % (dry.crash_reason() or "timeout")], [], []
        try:
            doc = json.loads(dry.out.decode("utf-8", "replace"))
        except ValueError:
            return ["dry run printed no JSON (status %d): %s" % (
                dry.status, testenv.show(dry.out + dry.err, 600))], [], []
        actions = doc.get("actions", [])
        decided_at_run_time = set()
        for a in actions:
            if a.get("decision") != "dynamic":
                continue
            if a.get("kind") == "builtin":
                decided_at_run_time.add(builtin_word(a))
            else:
                problems.append("corpus error: the dry run reports a dynamic action")
        actions = [a for a in actions if a.get("decision") != "dynamic"]
        want_status = {"allow": 0, "deny": 1, "dynamic": 3}.get(doc.get("verdict"), -1)
        if doc.get("verdict") == "dynamic" and not decided_at_run_time:
            problems.append("verdict dynamic without a dynamic action")
        if dry.status != want_status:
            problems.append("profile test exited %d with verdict %r" % (dry.status, doc.get("verdict")))
        # The real run, in a fresh LASH_HOME state (the dry run wrote no audit record
        # under default: monitoring is off there and nothing was refused).
        log = os.path.join(env["LASH_HOME"], "audit.log")
        if os.path.exists(log):
            os.unlink(log)
        real = testenv.run([lash, "-p", profile, "-c", cmd], box.work, env)
        if real.crash_reason() or real.timed_out:
            problems.append("real run crashed: %s" % (real.crash_reason() or "timeout"))
        for line in real.err.decode("utf-8", "replace").split("\n"):
            if line.startswith("lash: audit:"):
                problems.append("real run reported: %s" % line)
                break
        records = []
        if os.path.isfile(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                for line in f:
                    try:
                        records.append(json.loads(line))
                    except ValueError:
                        problems.append("audit.log line is not JSON: %r" % line[:200])
        records = [r for r in records if r.get("kind") != "profile"]
        static = set(tuples(actions))
        records = [r for r in records
                   if not (r.get("kind") == "builtin" and builtin_word(r) in decided_at_run_time
                           and tuples([r])[0] not in static)]
        d, r = tuples(actions), tuples(records)
        if d != r:
            problems.append("dry run and audit records differ")
        dry_denied = any(a.get("decision") == "deny" for a in actions)
        real_denied = any(x.get("decision") == "deny" for x in records)
        if dry_denied != real_denied:
            problems.append("dry verdict %r but the real run %s a denial" % (
                doc.get("verdict"), "wrote" if real_denied else "did not write"))
        return problems, d, r
    finally:
        box.remove()


def main(argv):
    if len(argv) != 3:
        print("usage: agree.py LASH_BINARY CORPUS", file=sys.stderr)
        return 2
    lash = os.path.abspath(argv[1])
    entries = read_corpus(argv[2])
    bad = 0
    decided = 0
    for lineno, profile, cmd in entries:
        problems, d, r = run_entry(lash, profile, cmd)
        decided += len(d)
        if not problems:
            print("agree     %s: %s  (%d decisions)" % (profile, cmd, len(d)))
            continue
        bad += 1
        print("DISAGREE  %s:%d  %s: %s" % (os.path.basename(argv[2]), lineno, profile, cmd))
        for p in problems:
            print("    " + p)
        for t in sorted(set(d) | set(r)):
            where = "both" if t in d and t in r else "dry run only" if t in d else "audit only"
            print("    %-13s %s" % (where, " | ".join(t)))
    print("%d of %d command lines agree" % (len(entries) - bad, len(entries)))
    # Guard against a vacuous pass (a lash whose dry run and audit log both stay empty).
    if decided < len(entries):
        print("FAIL: only %d decisions over %d command lines; the corpus has at least one "
              "per line on average" % (decided, len(entries)))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
