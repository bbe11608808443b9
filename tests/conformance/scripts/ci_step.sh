#!/usr/bin/env bash
# A CI helper: strict mode, arrays of steps, [[ ]] and (( )) bookkeeping.
set -euo pipefail
declare -a steps=(lint "unit tests" build package)
declare -A durations=()
failed=0
run_step() {
  local name=$1 i=$2
  durations[$name]=$(( (i * 7 + 3) % 11 ))
  [[ $name == *test* ]] && return 0
  (( durations[$name] > 9 )) && return 1
  return 0
}
for i in "${!steps[@]}"; do
  step=${steps[i]}
  if run_step "$step" "$i"; then
    printf '%-12s ok   %2ds\n' "$step" "${durations[$step]}"
  else
    printf '%-12s FAIL\n' "$step"; (( failed++ )) || true
  fi
done
total=0; for s in "${steps[@]}"; do (( total += durations[$s] )); done
echo "steps: ${#steps[@]} failed: $failed total: ${total}s"
