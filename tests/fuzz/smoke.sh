#!/usr/bin/env bash
# The CI smoke of one libFuzzer target: every seed is run (so each regression seed
# is checked), then a fixed number of mutations with a fixed random seed (at most
# SECONDS): the same inputs on every run, so CI cannot fail at random on a finding
# of its own; the long runs (./dev fuzz) look for new ones. New inputs go to a scratch
# directory, never into seeds/. Usage: smoke.sh EXE FUZZ_DIR NAME SECONDS
set -euo pipefail
exe=$1 dir=$2 name=$3 seconds=$4
seeds=$dir/seeds/$name
[ -d "$seeds" ] || { echo "no seed corpus $seeds" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
args=(-seed=1 -runs=1500 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
      -print_final_stats=1 -artifact_prefix="$scratch/")
[ -f "$dir/$name.dict" ] && args+=(-dict="$dir/$name.dict")
rc=0
"$exe" "${args[@]}" "$scratch" "$seeds" >"$scratch/log" 2>&1 || rc=$?
grep -E 'INITED|DONE|ERROR|SUMMARY|Test unit written|stat::number_of_executed_units' "$scratch/log" || true
if [ "$rc" != 0 ]; then
  tail -60 "$scratch/log"
  for f in "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* "$scratch"/oom-*; do
    [ -f "$f" ] && { echo "input $f (base64):"; base64 -w0 "$f"; echo; }
  done
  exit 1
fi
