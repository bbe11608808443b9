#!/usr/bin/env bash
# Parse an access log: while read, [[ =~ ]], associative counters, sorting.
set -euo pipefail

log=$(mktemp)
trap 'rm -f "$log"' EXIT
cat > "$log" <<'LOG'
192.168.1.10 - - [10/Oct/2023:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 2326
192.168.1.11 - - [10/Oct/2023:13:55:40 +0000] "POST /api/login HTTP/1.1" 401 112
10.0.0.5 - - [10/Oct/2023:13:56:01 +0000] "GET /api/items?page=2 HTTP/1.1" 200 5120
192.168.1.10 - - [10/Oct/2023:13:56:12 +0000] "GET /missing HTTP/1.1" 404 0
garbage line that does not parse
10.0.0.5 - - [10/Oct/2023:13:57:30 +0000] "DELETE /api/items/7 HTTP/1.1" 500 87
192.168.1.11 - - [10/Oct/2023:13:58:00 +0000] "POST /api/login HTTP/1.1" 200 340

10.0.0.9 - - [10/Oct/2023:14:01:02 +0000] "GET /index.html HTTP/2.0" 304 0
LOG

re='^([0-9.]+) [^ ]+ [^ ]+ \[([^]]+)\] "([A-Z]+) ([^ ?"]+)(\?[^ "]*)? HTTP/[0-9.]+" ([0-9]{3}) ([0-9]+)$'
declare -A by_ip=() by_status=() bytes_by_path=()
bad=0 total=0 lineno=0
while IFS= read -r line; do
  (( ++lineno ))
  [[ -z $line ]] && continue
  if [[ $line =~ $re ]]; then
    ip=${BASH_REMATCH[1]} method=${BASH_REMATCH[3]} path=${BASH_REMATCH[4]}
    status=${BASH_REMATCH[6]} size=${BASH_REMATCH[7]}
    (( ++total ))
    by_ip[$ip]=$(( ${by_ip[$ip]:-0} + 1 ))
    class="${status:0:1}xx"
    (( by_status[$class] += 1 ))
    (( bytes_by_path[$method $path] += size )) || true  # 0 bytes is status 1
  else
    echo "warning: line $lineno unparsed: ${line:0:20}..." >&2
    (( ++bad ))
  fi
done < "$log"

echo "parsed $total, bad $bad"
echo "== by ip"
for ip in "${!by_ip[@]}"; do printf '%s %d\n' "$ip" "${by_ip[$ip]}"; done | sort -k2,2nr -k1,1
echo "== by status class"
for c in $(printf '%s\n' "${!by_status[@]}" | sort); do
  printf '%s %s\n' "$c" "$(printf '%*s' "${by_status[$c]}" '' | tr ' ' '*')"
done
echo "== bytes by request"
while read -r n m p; do
  printf '%6d  %-6s %s\n' "$n" "$m" "$p"
done < <(for k in "${!bytes_by_path[@]}"; do echo "${bytes_by_path[$k]} $k"; done | sort -k1,1nr -k3)

echo "== errors via mapfile"
mapfile -t errors < <(grep -E '" (4|5)[0-9]{2} ' "$log")
echo "${#errors[@]} error lines"
for e in "${errors[@]}"; do
  [[ $e =~ \"([A-Z]+)\ ([^ ]+) ]] && echo "  ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
done
echo "== per-hour"
declare -A hours=()
while read -r ts; do
  h=${ts#*:}; h=${h%%:*}
  hours[$h]=$(( ${hours[$h]-0} + 1 ))
done < <(grep -o '\[[^]]*\]' "$log" | tr -d '[]')
for h in $(echo "${!hours[@]}" | tr ' ' '\n' | sort -n); do echo "$h:00 ${hours[$h]}"; done
