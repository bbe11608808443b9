# An ordinary script: option parsing by hand and with getopts, usage errors.
usage() { echo "usage: prog [-v] [-o FILE] [--name=N] ARGS" >&2; return 2; }
parse_manual() {
  verbose=0 out= name=default
  while [ $# -gt 0 ]; do
    case $1 in
      -v|--verbose) verbose=$((verbose+1)) ;;
      -o) [ $# -ge 2 ] || { usage; return; }; out=$2; shift ;;
      -o*) out=${1#-o} ;;
      --name=*) name=${1#*=} ;;
      --) shift; break ;;
      -*) echo "unknown option $1" >&2; usage; return ;;
      *) break ;;
    esac
    shift
  done
  echo "verbose=$verbose out=[$out] name=$name rest=$# [$*]"
}
parse_manual -v -v -o file.txt --name=x a b
parse_manual -ofile2 -- -v c
parse_manual
parse_manual -z 2>/dev/null; echo "status $?"
parse_manual -o 2>/dev/null; echo "status $?"
parse_getopts() {
  OPTIND=1 verbose=0 out=
  while getopts vo: opt; do
    case $opt in
      v) verbose=$((verbose+1)) ;;
      o) out=$OPTARG ;;
      *) return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "getopts: verbose=$verbose out=[$out] rest=[$*]"
}
parse_getopts -vv -o f a b
parse_getopts -v -- -o
parse_getopts -x 2>/dev/null; echo "status $?"
