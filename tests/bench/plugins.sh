#!/bin/sh
# Benchmarks of issue 14 (plugins, sessions, auto-detect), each against a peer of the
# same run (ratios, not absolute times: the machine may be shared):
#  - a plugin's first call, start-up included: the trivial `ping` plugin (sh, below)
#    measures what lash adds (sandbox, start, one round trip); the shipped `audit`
#    plugin adds the Python interpreter's start-up, whose peer is `python3 -IS -c
#    'import json'`;
#  - a round trip after the first call: (101 calls - 1 call) / 100 in one session;
#  - `session list` with 100 live sessions, against `lash -c true`;
#  - auto-detect at session start: an interactive session with it on and off.
#   tests/bench/plugins.sh LASH_BINARY
set -eu
here=$(cd "$(dirname "$0")" && pwd)
lash=${1:?usage: plugins.sh LASH_BINARY}
case $lash in /*) ;; *) lash=$(pwd)/$lash ;; esac
command -v hyperfine >/dev/null || { echo "plugins.sh: hyperfine not found" >&2; exit 2; }
runs=${BENCH_RUNS:-1}
work=$(mktemp -d)
cleanup() {
  exec 3>&- 2>/dev/null || true  # end of input: every idle session below exits
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
export LASH_HOME="$work/home" XDG_RUNTIME_DIR="$work/xdg"
mkdir -p "$LASH_HOME/plugins" "$work/repo/.git" && chmod 700 "$work/xdg" 2>/dev/null || mkdir -m 700 "$work/xdg"
ln -s "$here/ping" "$LASH_HOME/plugins/ping"
printf '[remote "origin"]\n\turl = https://git.example.org/x.git\n' > "$work/repo/.git/config"
calls=$(i=0; while [ $i -lt 101 ]; do printf 'plugin call ping ping >/dev/null; '; i=$((i+1)); done)

# t NAME COMMAND...: mean seconds of COMMAND into $work/NAME.json
t() {
  name=$1; shift
  echo "bench: $name" >&2
  hyperfine -N --style none --warmup 3 --runs "$((20 * runs))" --export-json "$work/$name.json" "$@" >/dev/null 2>"$work/$name.err" ||
    { echo "plugins.sh: hyperfine failed for $name:" >&2; cat "$work/$name.err" >&2; }
}
t true "$lash -c true"
t ping1 "$lash -c 'plugin call ping ping'"
t ping101 "$lash -c '$calls'"
t audit1 "$lash -c 'plugin call audit counts'"
t python "/usr/bin/python3 -IS -c 'import json'"
(cd "$work/repo" && printf '[profile]\nauto_detect = false\n' > "$LASH_HOME/config" &&
  t detect_off "$lash -i -c true" &&
  printf '[profile]\nauto_detect = true\n' > "$LASH_HOME/config" &&
  t detect_on "$lash -i -c true")
rm -f "$LASH_HOME/config"
# 100 live, idle sessions of this user, each reading a FIFO that this script holds
# open (fd 3, read-write so that opening it does not block): closing it ends them all.
mkfifo "$work/idle"
exec 3<>"$work/idle"
i=0
while [ $i -lt 100 ]; do
  "$lash" -c 'read x' < "$work/idle" >/dev/null 2>&1 3>&- &
  i=$((i + 1))
done
n=0
while [ "$(ls "$XDG_RUNTIME_DIR/lash/sessions" 2>/dev/null | grep -c json)" -lt 100 ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n+1)); done
t list100 "$lash -c 'session list'"
echo "live sessions: $(ls "$XDG_RUNTIME_DIR/lash/sessions" | grep -c json)" >&2

python3 - "$work" <<'PYEOF'
import json, os, sys
w = sys.argv[1]
def mean(n):
    try:
        return json.load(open(os.path.join(w, n + ".json")))["results"][0]["mean"]
    except Exception:
        return None
m = {n: mean(n) for n in ("true", "ping1", "ping101", "audit1", "python", "detect_off", "detect_on", "list100")}
rows = []
def row(label, value, peer_label, peer, goal_ms):
    if value is None or peer is None:
        rows.append((label, "?", peer_label, "?", "?", "<= %g ms" % goal_ms, "?"))
        return
    rows.append((label, "%.2f ms" % (value * 1000), peer_label, "%.2f ms" % (peer * 1000),
                 "%.2fx" % (value / peer if peer else 0), "<= %g ms" % goal_ms, "ok" if value * 1000 <= goal_ms else "MISSED"))
g = lambda a, b: None if m[a] is None or m[b] is None else m[a] - m[b]
rt = None if m["ping101"] is None or m["ping1"] is None else (m["ping101"] - m["ping1"]) / 100
row("plugin round trip after the first call", rt, "lash -c true", m["true"], 1)
row("first call, lash's part (ping, sh)", g("ping1", "true"), "lash -c true", m["true"], 20)
row("first call, audit (Python)", g("audit1", "true"), "python3 -IS json", m["python"], 20)
row("session list, 100 live sessions", m["list100"], "lash -c true", m["true"], 50)
row("auto-detect added to session start", g("detect_on", "detect_off"), "lash -i, off", m["detect_off"], 1)
head = ("measure", "lash", "peer", "peer time", "ratio", "goal", "verdict")
wd = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
line = lambda r: "  ".join(c.ljust(x) for c, x in zip(r, wd)).rstrip()
print(line(head)); print(line(tuple("-" * x for x in wd)))
for r in rows: print(line(r))
PYEOF
