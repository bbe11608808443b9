#!/usr/bin/env bash
# Backup with rotation: getopts, traps for cleanup, noclobber, globs sorted
# by name, arithmetic on generation numbers.
set -euo pipefail

usage() { echo "usage: backup_rotate [-k KEEP] [-n] [-q] DIR..." >&2; exit 64; }
keep=3 dry=0 quiet=0
log() { (( quiet )) || printf '[backup] %s\n' "$*"; }

root=$(mktemp -d)
cleanup() { local rc=$?; rm -rf "$root"; echo "cleanup (status $rc)"; }
trap cleanup EXIT
trap 'echo interrupted; exit 130' INT TERM

main() {
  local OPTIND opt
  while getopts ':k:nqh' opt; do
    case $opt in
      k) [[ $OPTARG =~ ^[1-9][0-9]*$ ]] || { echo "bad -k: $OPTARG" >&2; return 64; }; keep=$OPTARG ;;
      n) dry=1 ;;
      q) quiet=1 ;;
      h) usage ;;
      :) echo "option -$OPTARG requires an argument" >&2; return 64 ;;
      *) echo "unknown option -$OPTARG" >&2; return 64 ;;
    esac
  done
  shift $(( OPTIND - 1 ))
  (( $# )) || { usage; }
  local d
  for d in "$@"; do rotate "$d"; done
}

rotate() {
  local dir=$root/$1
  mkdir -p "$dir"
  local i
  # pretend earlier runs left generations 1..5
  for i in 1 2 3 4 5; do printf 'gen %d\n' "$i" > "$dir/data.tar.$i"; done
  local -a gens=()
  local f
  for f in "$dir"/data.tar.*; do gens+=("${f##*.}"); done
  IFS=$'\n' gens=($(sort -n <<< "${gens[*]}")); unset IFS
  log "$1: found ${#gens[@]} generations: ${gens[*]}"
  # shift each generation up by one, newest first
  for (( i = ${#gens[@]} - 1; i >= 0; i-- )); do
    local g=${gens[i]} next=$(( gens[i] + 1 ))
    if (( next > keep )); then
      log "drop generation $g"
      (( dry )) || rm -f "$dir/data.tar.$g"
    else
      log "move $g -> $next"
      (( dry )) || mv "$dir/data.tar.$g" "$dir/data.tar.$next"
    fi
  done
  (( dry )) || { set -o noclobber; printf 'gen new\n' > "$dir/data.tar.1"; set +o noclobber; }
  if (( ! dry )) && ! { set -C; echo again > "$dir/data.tar.1"; } 2>/dev/null; then
    log "noclobber kept data.tar.1"
  fi
  set +C
  local left=("$dir"/data.tar.*)
  log "$1: now ${#left[@]} file(s): $(for f in "${left[@]}"; do printf '%s=%s ' "${f##*.}" "$(head -c 7 "$f")"; done)"
}

main -k 3 etc home
main -n -q -k 2 var
echo "dry run left $(ls "$root/var" | wc -l) files"
( main -k 0 x ) 2>&1 || echo "status $?"
( main -k ) 2>&1 || echo "status $?"
( main -z ) 2>&1 || echo "status $?"
