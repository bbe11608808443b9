#!/bin/sh
# The escape matrix (tests/integration/sandbox/escape_matrix.py) under lash and under
# its peers, bubblewrap and firejail, each with the closest policy it can express
# (the policies are written in escape_matrix.py: BwrapRunner, FirejailRunner).
#   tests/bench/escape_peers.sh LASH_BINARY LASH_PROBE [RUNNER...]
#   e.g. tests/bench/escape_peers.sh build/lash build/tests/helpers/lash-probe
# Informational, never pass/fail: prints one table, attempts let through per runner,
# then the rows that at least one runner let through. A runner that is not installed
# is listed as such. ESCAPE_AS_NOBODY=1 (as root) runs everything as uid 65534.
set -u
here=$(cd "$(dirname "$0")" && pwd)
matrix=$here/../integration/sandbox/escape_matrix.py
lash=${1:?usage: escape_peers.sh LASH_BINARY LASH_PROBE [RUNNER...]}
probe=${2:?usage: escape_peers.sh LASH_BINARY LASH_PROBE [RUNNER...]}
shift 2
case $lash in /*) ;; *) lash=$(pwd)/$lash ;; esac
case $probe in /*) ;; *) probe=$(pwd)/$probe ;; esac
[ -x "$lash" ] || { echo "escape_peers.sh: $lash is not executable" >&2; exit 2; }
[ -x "$probe" ] || { echo "escape_peers.sh: $probe is not executable" >&2; exit 2; }
runners=${*:-lash bwrap firejail}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

out=$(mktemp -d)
chmod 755 "$out"
trap 'rm -rf "$out"' EXIT

for r in $runners; do
  echo "escape_peers: running the matrix under $r" >&2
  if [ "${ESCAPE_AS_NOBODY:-0}" = 1 ] && [ "$(id -u)" = 0 ]; then
    chmod 777 "$out"
    (cd /tmp && setpriv --reuid=65534 --regid=65534 --clear-groups \
      "$py" "$matrix" --runner "$r" --lash "$lash" --probe "$probe" \
      --json "$out/$r.json") > "$out/$r.log" 2>&1
  else
    "$py" "$matrix" --runner "$r" --lash "$lash" --probe "$probe" \
      --json "$out/$r.json" > "$out/$r.log" 2>&1
  fi
  status=$?
  if [ ! -s "$out/$r.json" ]; then
    echo "escape_peers: $r: no result (exit $status): $(tail -n 1 "$out/$r.log")" >&2
  fi
done

"$py" - "$out" $runners <<'EOF'
import json, os, sys
out, runners = sys.argv[1], sys.argv[2:]
res = {}
for r in runners:
    p = os.path.join(out, r + ".json")
    if os.path.exists(p):
        with open(p) as f:
            res[r] = json.load(f)
if not res:
    print("no runner produced a result")
    sys.exit(0)
uid = next(iter(res.values()))["uid"]
print("Escape matrix, uid %d: attempts let through per runner" % uid)
print("%-10s %9s %12s %8s %9s %8s" % ("runner", "attempts", "let through", "broken",
                                       "degraded", "seconds"))
for r in runners:
    if r not in res:
        print("%-10s %s" % (r, "no result (not installed, or cannot run here: see above)"))
        continue
    d = res[r]
    broken = sum(1 for t in d["rows"] if t["broken"])
    degraded = sum(1 for t in d["rows"] if t.get("degraded"))
    print("%-10s %9d %12d %8d %9d %8.1f" % (r, d["attempts"], d["let_through"], broken,
                                           degraded, d["seconds"]))
for r in runners:
    if r in res:
        b = [t["id"] for t in res[r]["rows"] if t["broken"]]
        if b:
            print("%s: broken rows (twin failed or not run): %s" % (r, ", ".join(b)))
# rows let through by at least one runner
order = []
by = {}
for r, d in res.items():
    for t in d["rows"]:
        if t["id"] not in by:
            order.append(t["id"])
            by[t["id"]] = {"desc": t["desc"], "layer": t["layer"]}
        by[t["id"]][r] = ("ACCEPTED" if t["accepted"] and t["let_through"] else
                          "through" if t["let_through"] else
                          "degraded" if t.get("degraded") else
                          "BROKEN" if t["broken"] else "-")
rows = [i for i in order
        if any(by[i].get(r) in ("through", "degraded") for r in res)]
print()
print("Rows let through by at least one runner (- = refused, n/a = not run):")
w = max(len(i) for i in order)
print("%-*s  %s  %s" % (w, "id", "  ".join("%-8s" % r for r in runners), "lash layer"))
for i in rows:
    print("%-*s  %s  %s" % (w, i, "  ".join("%-8s" % by[i].get(r, "n/a") for r in runners),
                            by[i]["layer"]))
EOF
