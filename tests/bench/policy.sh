#!/bin/sh
# Benchmarks of the policy and sandbox layers (issues 3 and 4), run by run.sh after
# the shell benchmarks. Figures are ratios from the same run.
#   tests/bench/policy.sh LASH_BINARY [BUILD_DIR]
set -eu
lash=${1:?usage: policy.sh LASH_BINARY [BUILD_DIR]}
build=${2:-$(dirname "$lash")}
runs=${BENCH_RUNS:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export LASH_HOME="$out/home"
mkdir -p "$LASH_HOME/profiles" "$out/work"

# A profile with a 1,000-entry allowlist (ls among them) and one with none.
{
  echo "[profile]"; echo "description = 1000-entry allowlist"
  echo "[inherit]"; echo "from = default"
  # Not the default's read_write = /: with an allowlist that needs the sandbox, where
  # a missing /etc/lash would be made inside a writable grant (refused, compile.cpp).
  echo "[filesystem]"; echo "read_write = $out/work"
  echo "[process]"; echo "spawn_any = false"
  printf 'spawn_allowlist = ls, cat'
  i=0; while [ $i -lt 998 ]; do printf ',\n    /opt/none/tool%d' $i; i=$((i+1)); done
  echo
} > "$LASH_HOME/profiles/big.profile"
# 10,000 commands that each need a decision (a redirect) without starting a program.
i=0; : > "$out/many.sh"
while [ $i -lt 10000 ]; do echo 'echo x > /dev/null' >> "$out/many.sh"; i=$((i+1)); done

hf() {  # hf NAME RUNS CMD...
  name=$1 n=$2; shift 2
  hyperfine -N --style none --warmup 3 --runs "$n" --export-json "$out/$name.json" "$@" >/dev/null 2>"$out/$name.err" ||
    { echo "policy.sh: hyperfine failed for $name" >&2; cat "$out/$name.err" >&2; }
}
echo "bench: profile start-up, decisions" >&2
hf startup $((200 * runs)) -n default "$lash -c true" -n ci "$lash -p ci -c true" -n big "$lash -p big -c true"
hf script $((5 * runs)) -n default "$lash $out/many.sh" -n big "$lash -p big $out/many.sh"
hf dryrun $((50 * runs)) -i -n big "$lash -p big -c 'profile test big \"ls; cat x; curl y\"'"
# profile review's one-screen summary, and profile explain of a 20-command line with
# refusals of several kinds, next to a bare start-up of the same binary.
line20="ls; cat a; curl x; wget y; echo > $out/work/o; export V=1; grep a b; sort c; make; gcc d.c"
line20="$line20; ls; cat a; curl x; wget y; echo > $out/work/o; export V=1; grep a b; sort c; make; gcc d.c"
hf review $((100 * runs)) -n true "$lash -c true" -n review "$lash -c 'profile review ci'" \
  -i -n explain "$lash -c 'profile explain --profile restricted \"$line20\"'"
hf spawn1 $((50 * runs)) -n default "$lash -c 'cat /dev/null'" -n ci "$lash -p ci -c 'cat /dev/null'"
# The same with the exec-closure cache ($LASH_HOME/cache) removed before each run: a
# first session, or one after the programs or libraries changed.
hf spawn1cold $((50 * runs)) --prepare "rm -rf $LASH_HOME/cache" -n default "$lash -c 'cat /dev/null'" \
  -n ci "$lash -p ci -c 'cat /dev/null'"

python3 - "$out" <<'PYEOF'
import json, os, sys
out = sys.argv[1]
def t(name):
    try:
        return {r["command"]: r["median"] for r in json.load(open(os.path.join(out, name + ".json")))["results"]}
    except (OSError, ValueError, KeyError):
        return {}
s, sc, d, sp, cold = t("startup"), t("script"), t("dryrun"), t("spawn1"), t("spawn1cold")
rv = t("review")
def ms(v): return "?" if v is None else "%.2f ms" % (v * 1000)
def ratio(a, b): return "?" if not a or not b else "%.2fx" % (a / b)
rows = [
    ("start-up -p ci vs default", ms(s.get("ci")), ms(s.get("default")), ratio(s.get("ci"), s.get("default")), "<= 1.2x"),
    ("start-up, 1,000-entry allowlist", ms(s.get("big")), ms(s.get("default")), ratio(s.get("big"), s.get("default")), "<= 1.2x"),
    ("10,000 redirect decisions, 1,000 entries", ms(sc.get("big")), ms(sc.get("default")), ratio(sc.get("big"), sc.get("default")), "O(1) per decision"),
    ("profile test (3 actions), 1,000 entries", ms(d.get("big")), "", "", ""),
    ("profile review ci (summary) vs lash -c true", ms(rv.get("review")), ms(rv.get("true")), ratio(rv.get("review"), rv.get("true")), "<= 20 ms"),
    ("profile explain, 20 commands vs lash -c true", ms(rv.get("explain")), ms(rv.get("true")), ratio(rv.get("explain"), rv.get("true")), "<= 50 ms"),
    ("session start + 1 spawn, ci vs default", ms(sp.get("ci")), ms(sp.get("default")), ratio(sp.get("ci"), sp.get("default")), "<= 2x"),
    ("  the same, no exec-closure cache", ms(cold.get("ci")), ms(cold.get("default")), ratio(cold.get("ci"), cold.get("default")), "<= 2x"),
]
head = ("measure", "lash (profile)", "lash (default)", "ratio", "goal")
w = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
for r in [head, tuple("-" * x for x in w)] + rows:
    print("  ".join(c.ljust(x) for c, x in zip(r, w)).rstrip())
PYEOF

# Per-spawn cost of the kernel sandbox (tests/helpers/spawn-bench) next to bwrap.
if [ -x "$build/tests/helpers/sandbox-spawn-bench" ]; then
  echo "bench: per-spawn sandbox cost (500 spawns)" >&2
  "$build/tests/helpers/sandbox-spawn-bench" 500 || true
fi
if command -v bwrap >/dev/null; then
  n=200
  t0=$(date +%s%N); i=0; while [ $i -lt $n ]; do /bin/true; i=$((i+1)); done; t1=$(date +%s%N)
  i=0; while [ $i -lt $n ]; do bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid /bin/true; i=$((i+1)); done; t2=$(date +%s%N)
  echo "bwrap: $(( (t2 - t1 - (t1 - t0)) / n / 1000 )) us added per spawn (plain $(( (t1 - t0) / n / 1000 )) us, $n runs)"
fi
if command -v firejail >/dev/null; then
  n=10
  t0=$(date +%s%N); i=0; while [ $i -lt $n ]; do firejail --quiet --noprofile /bin/true >/dev/null 2>&1 || true; i=$((i+1)); done; t1=$(date +%s%N)
  echo "firejail: $(( (t1 - t0) / n / 1000 )) us per spawn ($n runs)"
fi
