#!/usr/bin/env bash
# Package dependency resolution: topological sort with associative arrays,
# cycle detection, and reverse dependencies.
set -euo pipefail

declare -A deps=(
  [app]="web db cache"
  [web]="http log"
  [db]="log storage"
  [cache]="storage"
  [http]="log"
  [log]=""
  [storage]="log"
  [cli]="app log"
)

declare -A state=()   # unvisited / visiting / done
order=()

visit() {
  local node=$1 dep
  case ${state[$node]:-new} in
    done) return 0 ;;
    visiting) echo "cycle detected at $node" >&2; return 1 ;;
  esac
  state[$node]=visiting
  for dep in ${deps[$node]}; do
    [[ -v deps[$dep] ]] || { echo "unknown dependency $dep of $node" >&2; return 1; }
    visit "$dep" || return 1
  done
  state[$node]=done
  order+=("$node")
}

mapfile -t roots < <(printf '%s\n' "${!deps[@]}" | sort)
for r in "${roots[@]}"; do
  visit "$r"
done
echo "install order: ${order[*]}"
echo "count: ${#order[@]}"

# depth of each node = 1 + max depth of its deps
declare -A depth=()
for n in "${order[@]}"; do
  d=0
  for dep in ${deps[$n]}; do
    (( depth[$dep] + 1 > d )) && d=$(( depth[$dep] + 1 ))
  done
  depth[$n]=$d
done
for n in "${roots[@]}"; do
  printf '%-8s depth %d %s\n' "$n" "${depth[$n]}" "$(printf '%*s' "${depth[$n]}" '' | tr ' ' '#')"
done

# reverse dependencies
declare -A rdeps=()
for n in "${roots[@]}"; do
  for dep in ${deps[$n]}; do
    rdeps[$dep]+="${rdeps[$dep]:+,}$n"
  done
done
for n in "${roots[@]}"; do
  echo "$n <- ${rdeps[$n]:-(none)}"
done

# introduce a cycle and check that it is reported
deps[log]="app"
state=() order=()
if ( visit cli ) 2>err.txt; then
  echo "no cycle?"
else
  echo "failed as expected: $(<err.txt)"
fi
unset 'deps[log]'
echo "keys now: ${#deps[@]}"
declare -p state | sed 's/declare -A state=//' | tr -d '()' | wc -c | tr -d ' ' >/dev/null
echo done
