#!/usr/bin/env bash
# Run work in background jobs with a concurrency limit; collect status with wait.
set -u
workdir=$(mktemp -d "${TMPDIR:-/tmp}/pjobs.XXXXXX")
trap 'rm -rf "$workdir"' EXIT

task() {
  local id=$1
  local sum=0 i
  for (( i = 1; i <= id * 10; i++ )); do (( sum += i )); done
  echo "$sum" > "$workdir/$id.out"
  (( id % 4 == 0 )) && return $(( id / 4 ))
  return 0
}

declare -A pid_of=()
declare -a ids=(1 2 3 4 5 6 7 8)
max=3
running=0
declare -A status=()

for id in "${ids[@]}"; do
  if (( running >= max )); then
    wait -n
    (( running-- ))
  fi
  task "$id" &
  pid_of[$id]=$!
  (( running++ ))
done

for id in "${ids[@]}"; do
  wait "${pid_of[$id]}"
  status[$id]=$?
done

fails=0
for id in "${ids[@]}"; do
  printf 'task %d: sum=%-5s status=%d\n' "$id" "$(<"$workdir/$id.out")" "${status[$id]}"
  (( status[$id] != 0 )) && (( fails++ ))
done
echo "failures: $fails"

# a pipeline of background producers joined by wait with no args
for n in 3 1 2; do
  { printf 'chunk-%d\n' "$n"; } > "$workdir/chunk$n" &
done
wait
cat "$workdir"/chunk* | sort

# subshell job that reports its own status through a file
( exit 7 ) &
wait $!
echo "subshell exit: $?"
jobs_left=$(jobs -p | wc -l)
echo "jobs left: $jobs_left"
