#!/usr/bin/env bash
# CI pipeline step runner: strict mode, ERR trap with FUNCNAME/LINENO context,
# pipefail, captured statuses, and a final summary table.
set -Eeuo pipefail

declare -a names=() results=()
current=""
on_err() {
  local rc=$? line=$1
  echo "ERR trap: status $rc at line $line in ${FUNCNAME[1]:-main} (step '$current')"
}
trap 'on_err $LINENO' ERR

step() {
  current=$1; shift
  names+=("$current")
  local rc=0
  ( set -e; "$@" ) > "step.log" 2>&1 || rc=$?
  results+=("$rc")
  printf '::group::%s\n' "$current"
  sed 's/^/    /' step.log
  printf '::endgroup:: (status %d)\n' "$rc"
  rm -f step.log
  return 0
}

lint() {
  local files=(a.sh b.sh c.py)
  local f
  for f in "${files[@]}"; do
    [[ $f == *.sh ]] && echo "shellcheck $f"
  done
  return 0
}
unit_tests() {
  local passed=0 failed=0 t
  for t in {1..6}; do
    if (( t % 5 == 0 )); then (( ++failed )); echo "test_$t FAILED"; else (( ++passed )); fi
  done
  echo "passed=$passed failed=$failed"
  (( failed == 0 ))
}
pipeline_check() {
  printf 'line1\nline2\n' | grep -q nomatch | cat
  echo "not reached"
}
allowed_failure() {
  set +e
  false
  local rc=$?
  set -e
  echo "tolerated status $rc"
}
build() {
  local out
  out=$(printf '%s\n' obj1 obj2 obj3 | tr a-z A-Z | paste -sd, -)
  echo "built: $out"
}

step lint lint
step "unit tests" unit_tests
step pipeline pipeline_check
step "allowed failure" allowed_failure
step build build

echo
printf '%-18s %s\n' STEP RESULT
overall=0
for i in "${!names[@]}"; do
  r=${results[i]}
  if (( r == 0 )); then s=pass; else s="FAIL($r)"; overall=1; fi
  printf '%-18s %s\n' "${names[i]}" "$s"
done

# ERR trap fires in a function, the script continues because of ||
failing() { false; }
failing || echo "failing returned $?"
# and here it fires for real in the main body under a conditional-free command
check_status() { return "$1"; }
set +e
check_status 3
echo "after check_status: $?"
set -e
echo "overall=$overall"
exit "$overall"
