#!/bin/sh
# The spawn loop (spawn_loop.sh: /bin/true 300 times) under dash, lash with the
# default profile, an allowlist profile and a spawn_any profile with limits, and dash
# wrapping each /bin/true in bubblewrap, all in the same run. Prints each time, the
# ratio to dash and the time added per spawn over lash under default.
#   tests/bench/spawn.sh LASH_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
lash=${1:?usage: spawn.sh LASH_BINARY}
case $lash in /*) ;; *) lash=$(pwd)/$lash ;; esac
dash=$(command -v dash)
runs=${BENCH_RUNS:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export LASH_HOME="$out/home"
mkdir -p "$LASH_HOME/profiles" "$out/work"
cd "$out/work"
# An allowlist: only /bin/true may run (plus the workdir writable, as ci has).
cat > "$LASH_HOME/profiles/allowlist.profile" <<PROF
[inherit]
from = default
[filesystem]
read_write = $out/work
[process]
spawn_any = false
spawn_allowlist = true
PROF
# spawn_any with limits: rlimits and the session cgroup, no allowlist.
cat > "$LASH_HOME/profiles/limits.profile" <<PROF
[inherit]
from = default
[filesystem]
read_write = $out/work
[resources]
max_processes = 200
max_open_files = 512
max_cpu_seconds = 600
PROF
for p in allowlist limits; do
  "$lash" -p $p "$here/spawn_loop.sh" >/dev/null 2>"$out/$p.err" || { echo "spawn.sh: lash -p $p fails:" >&2; cat "$out/$p.err" >&2; }
done
set --
if command -v bwrap >/dev/null && bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid /bin/true 2>/dev/null; then
  set -- -n bwrap "$dash $here/spawn_loop.sh bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid /bin/true"
fi
echo "bench: spawn loop, 300 x /bin/true ($((5 * runs)) runs each)" >&2
hyperfine -N --style none --warmup 1 --runs $((5 * runs)) --export-json "$out/spawn.json" \
  -n dash "$dash $here/spawn_loop.sh" \
  -n default "$lash $here/spawn_loop.sh" \
  -n allowlist "$lash -p allowlist $here/spawn_loop.sh" \
  -n limits "$lash -p limits $here/spawn_loop.sh" \
  "$@" >/dev/null 2>"$out/spawn.hf" || { echo "spawn.sh: hyperfine failed:" >&2; cat "$out/spawn.hf" >&2; }
python3 - "$out/spawn.json" <<'PYEOF'
import json, sys
try:
    t = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
except (OSError, ValueError, KeyError):
    t = {}
d, base = t.get("dash"), t.get("default")
rows = []
for name, label, goal, limit in (("dash", "dash", "", None),
                                 ("default", "lash, default", "<= 1.1x dash", ("dash", 1.1)),
                                 ("allowlist", "lash, allowlist", "<= 0.3 ms/spawn over default", ("ms", 0.3)),
                                 ("limits", "lash, spawn_any + limits", "<= 0.3 ms/spawn over default", ("ms", 0.3)),
                                 ("bwrap", "dash + bwrap per spawn", "", None)):
    v = t.get(name)
    if v is None and name == "bwrap":
        continue
    ms = "?" if v is None else "%.0f ms" % (v * 1000)
    ratio = "?" if not v or not d else "%.2fx" % (v / d)
    added = "" if not v or not base or name in ("dash", "default") else "%+.3f ms" % ((v - base) * 1000 / 300)
    verdict = "FAILED" if limit and v is None else ""
    if limit and v:
        if limit[0] == "dash" and d:
            verdict = "ok" if v <= limit[1] * d else "MISSED"
        elif limit[0] == "ms" and base:
            verdict = "ok" if (v - base) * 1000 / 300 <= limit[1] else "MISSED"
    rows.append((label, ms, ratio, added, goal, verdict))
head = ("spawn loop (300 x /bin/true)", "median", "x dash", "per spawn vs default", "goal", "verdict")
w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
for r in [head, tuple("-" * x for x in w)] + rows:
    print("  ".join(c.ljust(x) for c, x in zip(r, w)).rstrip())
PYEOF
