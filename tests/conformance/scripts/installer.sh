#!/usr/bin/env bash
# An installer's argument parsing and planning, without touching the system.
set -eu
prefix=/usr/local; dry_run=0; components=()
usage() { echo "usage: ${0##*/} [--prefix DIR] [--dry-run] COMPONENT..."; }
set -- --prefix /opt/tool --dry-run cli docs "man pages"
while (( $# )); do
  case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) components+=("$1"); shift ;;
  esac
done
[[ ${#components[@]} -gt 0 ]] || { usage >&2; exit 2; }
for c in "${components[@]}"; do
  dest="$prefix/${c// /_}"
  (( dry_run )) && echo "would install ${c^^} to $dest" || echo "install $c"
done
version="v2.14.3"; [[ $version =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] && echo "major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}"
