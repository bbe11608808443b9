#!/usr/bin/env bash
# Summarises a web server log: status classes, top paths, slow requests. Uses
# mapfile, process substitution, PIPESTATUS, printf -v and an ERR trap.
set -euo pipefail
shopt -s nullglob

trap 'echo "error on line $LINENO" >&2' ERR

make_log() {
  local i
  for i in $(seq 1 40); do
    printf '10.0.0.%d GET /api/v%d/items %d %d\n' \
      $((i % 7)) $((i % 3 + 1)) $(( i % 9 == 0 ? 500 : (i % 5 == 0 ? 404 : 200) )) $((i * 37 % 900))
  done
}

declare -A by_class=()
declare -A by_path=()
slow=()

mapfile -t lines < <(make_log)
echo "read ${#lines[@]} lines"

for line in "${lines[@]}"; do
  read -r ip method path status ms <<< "$line"
  class="${status:0:1}xx"
  by_class[$class]=$(( ${by_class[$class]:-0} + 1 ))
  by_path[$path]=$(( ${by_path[$path]:-0} + 1 ))
  if (( ms > 700 )); then
    printf -v entry '%-10s %-16s %4dms' "$ip" "$path" "$ms"
    slow+=("$entry")
  fi
done

echo "== status classes"
for c in $(printf '%s\n' "${!by_class[@]}" | sort); do
  printf '%s %3d\n' "$c" "${by_class[$c]}"
done

echo "== paths"
while read -r count path; do
  printf '%-16s %s\n' "$path" "$count"
done < <(for p in "${!by_path[@]}"; do echo "${by_path[$p]} $p"; done | sort -k1,1nr -k2)

echo "== slow (${#slow[@]})"
printf '  %s\n' "${slow[@]}"

printf '%s\n' "${lines[@]}" | grep -c ' 500 ' | { read -r n; echo "errors: $n"; }
echo "pipeline statuses: ${PIPESTATUS[*]}"

leftovers=(/nonexistent-logs/*.log)
echo "rotated logs: ${#leftovers[@]}"

summary() {
  echo "${FUNCNAME[0]} called from ${FUNCNAME[1]}"
  local total=0 c
  for c in "${!by_class[@]}"; do (( total += by_class[$c] )); done
  echo "total $total"
}
summary
