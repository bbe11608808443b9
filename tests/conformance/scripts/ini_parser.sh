#!/usr/bin/env bash
# Parse an INI file into an associative array keyed "section.key"; query it,
# validate types and print it back normalized.
set -euo pipefail

ini=$(mktemp)
trap 'rm -f "$ini"' EXIT
cat > "$ini" <<'INI'
; global settings
name = demo app
debug=false

[server]
host   = 0.0.0.0
port = 8080 ; inline comment
  timeout=30s
[database]
url = "postgres://user@localhost/db"
pool=  10
# another comment style
[empty]
[paths]
root = /srv/app
logs = ${root}/logs
bad line without equals
INI

declare -A cfg=()
declare -a order=()
section=""
n=0
while IFS= read -r raw || [[ -n $raw ]]; do
  (( ++n ))
  line="${raw%%[;#]*}"
  line="${line#"${line%%[![:space:]]*}"}"
  line="${line%"${line##*[![:space:]]}"}"
  [[ -z $line ]] && continue
  if [[ $line =~ ^\[([A-Za-z0-9_.-]+)\]$ ]]; then
    section=${BASH_REMATCH[1]}
    continue
  fi
  if [[ $line != *=* ]]; then
    echo "line $n: ignored: $line" >&2
    continue
  fi
  key=${line%%=*}; val=${line#*=}
  key=${key%"${key##*[![:space:]]}"}
  val=${val#"${val%%[![:space:]]*}"}
  if [[ $val == \"*\" ]]; then val=${val:1:${#val}-2}; fi
  full=${section:+$section.}$key
  [[ -v cfg[$full] ]] || order+=("$full")
  cfg[$full]=$val
done < "$ini"

get() { local k=$1 d=${2-}; if [[ -v cfg[$k] ]]; then printf '%s\n' "${cfg[$k]}"; else printf '%s\n' "$d"; fi; }

# resolve ${key} references within the same section
for k in "${order[@]}"; do
  v=${cfg[$k]}
  sec=${k%.*}
  while [[ $v =~ \$\{([a-z]+)\} ]]; do
    ref=${BASH_REMATCH[1]}
    v=${v//"\${$ref}"/${cfg[$sec.$ref]:-}}
  done
  cfg[$k]=$v
done

echo "entries: ${#order[@]}"
echo "port+1: $(( $(get server.port) + 1 ))"
echo "timeout seconds: $(t=$(get server.timeout); echo "${t%s}")"
echo "missing: $(get server.nope fallback)"
echo "logs: $(get paths.logs)"
case $(get debug) in
  true|yes|1) echo "debug on" ;;
  false|no|0) echo "debug off" ;;
  *) echo "debug invalid" ;;
esac

errors=0
for k in server.port database.pool; do
  [[ ${cfg[$k]} =~ ^[0-9]+$ ]] || { echo "not a number: $k"; (( ++errors )); }
done
echo "errors: $errors"

prev=""
for k in "${order[@]}"; do
  sec=${k%.*}; [[ $k == *.* ]] || sec=""
  if [[ $sec != "$prev" ]]; then printf '\n[%s]\n' "$sec"; prev=$sec; fi
  printf '%s=%q\n' "${k##*.}" "${cfg[$k]}"
done
