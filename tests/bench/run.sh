#!/bin/sh
# Benchmarks lash side by side with dash and bash, in the same run.
#   tests/bench/run.sh LASH_BINARY        (./dev bench: build-release/lash, LTO)
# BENCH_HELPERS: the build directory holding tests/helpers (default: LASH_BINARY's).
# Prints one table: each measure for dash, bash and lash, the lash/dash ratio
# and the goal from docs/testing.md. BENCH_RUNS scales the number of runs.
# Timings are noisy on shared machines: compare ratios, not absolute times.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
lash=${1:?usage: run.sh LASH_BINARY}
case $lash in /*) ;; *) lash=$(pwd)/$lash ;; esac
[ -x "$lash" ] || { echo "run.sh: $lash is not executable" >&2; exit 2; }
dash=$(command -v dash) || { echo "run.sh: dash not found" >&2; exit 2; }
bash=$(command -v bash) || { echo "run.sh: bash not found" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "run.sh: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }
runs=${BENCH_RUNS:-1}
echo "lash under test: $lash"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Sanity: every shell must produce the same result before being timed.
for s in dash bash lash; do
  eval "bin=\$$s"
  for b in loop func_case; do
    "$bin" "$here/$b.sh" > "$out/$b.$s.out" 2>&1 || true
  done
done
for b in loop func_case; do
  if ! cmp -s "$out/$b.dash.out" "$out/$b.lash.out"; then
    echo "run.sh: warning: lash output of $b.sh differs from dash:" >&2
    head -3 "$out/$b.lash.out" >&2
  fi
done

# bench NAME RUNS WARMUP COMMAND-WITH-{S}
bench() {
  name=$1 n=$2 warm=$3 cmd=$4
  echo "bench: $name ($n runs each)" >&2
  hyperfine -N --style none --warmup "$warm" --runs "$n" \
    --export-json "$out/$name.json" \
    -n dash "$(echo "$cmd" | sed "s|{S}|$dash|")" \
    -n bash "$(echo "$cmd" | sed "s|{S}|$bash|")" \
    -n lash "$(echo "$cmd" | sed "s|{S}|$lash|")" >/dev/null 2>"$out/$name.err" ||
    { echo "run.sh: hyperfine failed for $name:" >&2; cat "$out/$name.err" >&2; }
}

# bench_bash NAME RUNS COMMAND-WITH-{S}: bash's extensions, so bash and lash only.
bench_bash() {
  name=$1 n=$2 cmd=$3
  echo "bench: $name ($n runs each)" >&2
  hyperfine -N --style none --warmup 1 --runs "$n" --export-json "$out/$name.json" \
    -n bash "$(echo "$cmd" | sed "s|{S}|$bash|")" \
    -n lash "$(echo "$cmd" | sed "s|{S}|$lash|")" >/dev/null 2>"$out/$name.err" ||
    { echo "run.sh: hyperfine failed for $name:" >&2; cat "$out/$name.err" >&2; }
}

bench startup $((300 * runs)) 20 "{S} -c true"
bench_bash array_cond $((3 * runs)) "{S} $here/array_cond.sh"
bench loop $((5 * runs)) 1 "{S} $here/loop.sh"
bench func_case $((5 * runs)) 1 "{S} $here/func_case.sh"

echo "bench: peak RSS" >&2
for s in dash bash lash; do
  eval "bin=\$$s"
  python3 "$here/maxrss.py" $((5 * runs)) "$bin" -c true > "$out/rss.$s" 2>"$out/rss.$s.err" || echo "?" > "$out/rss.$s"
done

python3 - "$out" <<'PYEOF'
import json, os, sys
out = sys.argv[1]

def times(name):
    try:
        with open(os.path.join(out, name + ".json")) as f:
            res = json.load(f)["results"]
    except (OSError, ValueError, KeyError):
        return {}
    # hyperfine's "command" is the -n label; the median resists outliers.
    return {r["command"]: r["median"] for r in res}

def rss(shell):
    try:
        return int(open(os.path.join(out, "rss." + shell)).read())
    except (OSError, ValueError):
        return None

rows = []
def row(label, vals, unit, scale, goal, peer, limit):
    d, b, l = (vals.get(s) for s in ("dash", "bash", "lash"))
    fmt = lambda v: "?" if v is None else ("%.1f %s" % (v * scale, unit) if unit == "ms" else "%d %s" % (v, unit))
    ratio = (l / d) if (l and d) else None
    ref = vals.get(peer)
    verdict = "?" if (l is None or ref is None) else ("ok" if l <= limit * ref else "MISSED")
    rows.append((label, fmt(d), fmt(b), fmt(l), "?" if ratio is None else "%.2fx" % ratio, goal, verdict))

row("start-up: X -c true", times("startup"), "ms", 1000, "<= 1.5x dash", "dash", 1.5)
row("while loop 300k, $(( ))", times("loop"), "ms", 1000, "<= 1.5x dash (aim 1.0x)", "dash", 1.5)
row("100k calls: case + ${v%p}", times("func_case"), "ms", 1000, "<= 1.5x dash (aim 1.0x)", "dash", 1.5)
row("200k: array + [[ ]] + (( ))", times("array_cond"), "ms", 1000, "<= 0.5x bash", "bash", 0.5)
row("peak RSS of X -c true", {s: rss(s) for s in ("dash", "bash", "lash")}, "KiB", 1, "<= bash", "bash", 1.0)

head = ("measure", "dash", "bash", "lash", "lash/dash", "goal", "verdict")
widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
print(line(head))
print(line(tuple("-" * w for w in widths)))
for r in rows:
    print(line(r))
PYEOF

echo
sh "$here/spawn.sh" "$lash"
echo
sh "$here/policy.sh" "$lash" "${BENCH_HELPERS:-$(dirname "$lash")}"
echo
sh "$here/relay.sh" "$lash"
echo
# Interactive: 10k history entries, 5k commands on PATH, idle RSS, against bash -i.
python3 "$here/interactive.py" "$lash" $((9 * runs))
# Building lash under ci and default (issue 15's goal); BENCH_CI_BUILD=0 leaves out
# its four builds.
if [ "${BENCH_CI_BUILD:-1}" = 1 ]; then
  echo
  sh "$here/ci_build.sh" "$lash" "$(cd "$here/../.." && pwd)"
fi
echo
sh "$here/plugins.sh" "$lash"
