#!/usr/bin/env bash
# Long/short option parsing with case/shift, the style of many CLI wrappers.
set -eu

usage() {
  cat <<USAGE
usage: tool [-v] [-o FILE] [--name=NAME] [--tag TAG]... [--] ARGS...
USAGE
}

parse() {
  verbose=0 output=- name=default dry_run=false
  tags=() rest=()
  while (( $# > 0 )); do
    case $1 in
      -h|--help) usage; return 0 ;;
      -v|--verbose) (( verbose += 1 )) ;;
      -vv) (( verbose += 2 )) ;;
      -o|--output)
        [[ $# -ge 2 ]] || { echo "error: $1 needs an argument" >&2; return 2; }
        output=$2; shift ;;
      --output=*) output=${1#*=} ;;
      --name=*) name=${1#--name=} ;;
      --tag) tags+=("$2"); shift ;;
      --tag=*) tags+=("${1#*=}") ;;
      -n|--dry-run) dry_run=true ;;
      --) shift; rest+=("$@"); break ;;
      -*) echo "error: unknown option '$1'" >&2; return 2 ;;
      *) rest+=("$1") ;;
    esac
    shift
  done
  printf 'verbose=%d output=%s name=%s dry_run=%s\n' "$verbose" "$output" "$name" "$dry_run"
  printf 'tags(%d):' "${#tags[@]}"; printf ' [%s]' "${tags[@]+"${tags[@]}"}"; echo
  printf 'rest(%d):' "${#rest[@]}"; printf ' <%s>' "${rest[@]+"${rest[@]}"}"; echo
}

run_case() {
  echo "\$ tool $*"
  local rc=0
  parse "$@" || rc=$?
  echo "-> $rc"
}

run_case -v --output out.txt file1 "file two"
run_case -vv --name="my app" --tag a --tag=b -- -notanopt --x
run_case --output=/dev/null -n -v -v
run_case -o 2>&1
run_case --bogus x 2>&1
run_case --help
run_case "" "  spaced  " '*'

# combined short flags expanded by hand, like many scripts do
expand_flags() {
  local out=() a i
  for a in "$@"; do
    if [[ $a =~ ^-[a-z]{2,}$ ]]; then
      for (( i = 1; i < ${#a}; i++ )); do out+=("-${a:i:1}"); done
    else
      out+=("$a")
    fi
  done
  printf '%s\n' "${out[*]}"
}
expand_flags -vn -o x -abc --long
