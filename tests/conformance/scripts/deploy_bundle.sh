#!/usr/bin/env bash
# A deploy helper: parses options with getopts, loads a sourced config, collects
# files with globstar/dotglob, checks tools with type -t, and cleans up in an EXIT
# trap. Runs in a scratch directory of its own.
set -euo pipefail
shopt -s globstar dotglob

work=$(mktemp -d)
cleanup() { rm -rf "$work"; echo "cleaned up"; }
trap cleanup EXIT

usage() { echo "usage: deploy [-n] [-e ENV] [-v]" >&2; return 2; }

dry=0 env=staging verbose=0
parse() {
  local opt OPTIND=1
  while getopts ":ne:v" opt "$@"; do
    case $opt in
      n) dry=1 ;;
      e) env=$OPTARG ;;
      v) (( verbose += 1 )) ;;
      :) echo "missing value for -$OPTARG" >&2; return 2 ;;
      \?) echo "unknown option -$OPTARG" >&2; usage || return ;;
    esac
  done
}
parse -n -e production -v -v

cat > "$work/deploy.conf" <<'CONF'
APP_NAME=shop
REPLICAS=3
declare -a REGIONS=(eu-west us-east)
CONF
source "$work/deploy.conf"

mkdir -p "$work/app/static/css" "$work/app/lib"
touch "$work/app/main.py" "$work/app/.env" "$work/app/lib/db.py" "$work/app/static/css/site.css"
cd "$work/app"
files=(**/*)
echo "bundle: ${#files[@]} entries"
for f in "${files[@]}"; do
  [[ -f $f ]] && printf '  %s\n' "$f"
done

for tool in tar printf cleanup definitely-not-a-tool; do
  kind=$(type -t "$tool" || true)
  printf '%-22s %s\n' "$tool" "${kind:-missing}"
done

for region in "${REGIONS[@]}"; do
  for (( r = 1; r <= REPLICAS; r++ )); do
    target="$APP_NAME-$env-$region-$r"
    if (( dry )); then
      echo "would deploy $target"
    else
      echo "deploying $target"
    fi
  done
done
(( verbose >= 2 )) && echo "verbosity $verbose, env ${env^^}"
