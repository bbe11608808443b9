#!/bin/sh
# The session network relay against a direct connection and pasta (Debian passt), in
# the same run: bulk throughput (iperf3 and a 512 MiB Python stream), median connect +
# 1-byte echo, 1000 concurrent connections, and the relay's CPU time per GB moved.
#   tests/bench/relay.sh LASH_BINARY        (run by tests/bench/run.sh, ./dev bench)
# Needs root (the servers live in network namespaces of the benchmark's own); says
# SKIP otherwise. Goals (docs/testing.md): throughput >= 50% of direct and >= pasta's;
# added latency <= 0.3 ms; 1000 concurrent connections without errors.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
lash=${1:?usage: relay.sh LASH_BINARY}
echo "relay bench: lash's session relay vs direct vs pasta"
if [ "$(id -u)" != 0 ]; then echo "relay bench: SKIP (needs root for its own network namespaces)"; exit 0; fi
out=$(nice -n 0 python3 "$here/../integration/net/relay_test.py" --lash "$lash" --bench 2>&1) ||
  { echo "relay bench: failed:"; echo "$out" | tail -5; exit 0; }
python3 - "$out" <<'PYEOF'
import re, sys
vals = {}
for l in sys.argv[1].splitlines():
    if " " in l:
        k, v = l.split(" ", 1)
        vals[k] = v
def num(key, field=None):
    v = vals.get(key, "")
    if field:
        m = re.search(field + r"=([0-9.]+)", v)
        return float(m.group(1)) if m else None
    try:
        return float(v)
    except ValueError:
        return None
rows = []
def ratio(a, b):
    return "?" if a is None or not b else "%.2f" % (a / b)
for label, key, field, unit in (("iperf3 throughput", "_iperf3_gbit", None, "Gbit/s"),
                                ("512 MiB stream", "_client", "gbit", "Gbit/s"),
                                ("connect + 1-byte echo (median)", "_client", "connect_echo_ms_median", "ms"),
                                ("1000 concurrent, answered", "_client", "concurrent_ok", "")):
    d, r, p = (num(w + key, field) for w in ("direct", "relay", "pasta"))
    fmt = lambda v: "?" if v is None else ("%g %s" % (round(v, 3), unit)).strip()
    if unit == "ms":
        added = None if d is None or r is None else r - d
        extra = "added %s ms (goal <= 0.3): %s" % ("?" if added is None else "%.3f" % added,
                                                   "?" if added is None else ("ok" if added <= 0.3 else "MISSED"))
    elif unit == "Gbit/s":
        ok = r is not None and d and r >= 0.5 * d and (p is None or r >= p)
        extra = "relay/direct %s, relay/pasta %s (goal >= 0.5 and >= 1): %s" % (ratio(r, d), ratio(r, p),
                                                                               "ok" if ok else "MISSED")
    else:
        extra = "goal 1000: %s" % ("ok" if r == 1000 else "MISSED")
    rows.append((label, fmt(d), fmt(r), fmt(p), extra))
rows.append(("relay CPU per GB", "", vals.get("relay_cpu_s_per_gb", "?") + " s", "", ""))
head = ("measure", "direct", "relay", "pasta", "")
w = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
for r in [head] + rows:
    print("  ".join(c.ljust(x) for c, x in zip(r, w)).rstrip())
if "pasta" in vals:
    print("pasta: " + vals["pasta"])
PYEOF
