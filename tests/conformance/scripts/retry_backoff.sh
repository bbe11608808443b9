#!/usr/bin/env bash
# Retry helper with exponential backoff and a fake clock (no real sleeping).
set -uo pipefail

CLOCK=0
fake_sleep() { (( CLOCK += $1 )); }

declare -A attempts=()
# flaky NAME FAILS: fails FAILS times, then succeeds
flaky() {
  local name=$1 fails=$2
  attempts[$name]=$(( ${attempts[$name]:-0} + 1 ))
  if (( attempts[$name] <= fails )); then
    echo "  $name: attempt ${attempts[$name]} failed" >&2
    return 3
  fi
  echo "  $name: ok after ${attempts[$name]} attempt(s)"
}

retry() {
  local max=5 delay=1 cap=8 OPTIND opt
  while getopts ':n:d:c:' opt; do
    case $opt in
      n) max=$OPTARG ;;
      d) delay=$OPTARG ;;
      c) cap=$OPTARG ;;
      :) echo "retry: -$OPTARG needs a value" >&2; return 2 ;;
      \?) echo "retry: unknown option -$OPTARG" >&2; return 2 ;;
    esac
  done
  shift $(( OPTIND - 1 ))
  local n=1 rc
  until "$@"; do
    rc=$?
    if (( n >= max )); then
      echo "  giving up on '$*' after $n attempts (last status $rc)"
      return "$rc"
    fi
    echo "  waiting ${delay}s before attempt $(( n + 1 ))"
    fake_sleep "$delay"
    (( delay = delay * 2 > cap ? cap : delay * 2 ))
    (( n++ ))
  done
}

echo "== service A"
retry -n 4 flaky svcA 2 2>/dev/null
echo "status $? clock $CLOCK"

echo "== service B"
CLOCK=0
retry -n 3 -d 2 flaky svcB 9 2>&1 | sed 's/^/| /'
echo "pipe status: ${PIPESTATUS[*]}"

echo "== service C with cap"
CLOCK=0
retry -n 6 -d 3 -c 5 flaky svcC 5
echo "status $? clock $CLOCK"

echo "== bad options"
retry -x true; echo "status $?"
retry -n; echo "status $?"

echo "== summary"
for k in $(printf '%s\n' "${!attempts[@]}" | sort); do
  printf '%-6s %d\n' "$k" "${attempts[$k]}"
done
