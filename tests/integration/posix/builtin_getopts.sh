# getopts: options, arguments, clusters, errors (silent and not), OPTIND.
parse() {
  OPTIND=1
  while getopts "ab:c" opt "$@"; do
    case $opt in
      a) echo "  a";;
      b) echo "  b=$OPTARG";;
      c) echo "  c";;
      \?) echo "  unknown (OPTARG=${OPTARG-unset})";;
      :) echo "  missing arg";;
    esac
  done
  shift $((OPTIND-1)); echo "  rest: $* (OPTIND=$OPTIND)"
}
echo "1:"; parse -a -b val -c file1 file2
echo "2:"; parse -ab val
echo "3:"; parse -bval -a
echo "4:"; parse -ac -- -a
echo "5:"; parse -x -a 2>/dev/null
echo "6:"; parse -b 2>/dev/null
echo "7:"; parse file -a
echo "8:"; parse -
echo "9:"; parse
silent() {
  OPTIND=1
  while getopts ":ab:" opt "$@"; do
    case $opt in
      \?) echo "  silent unknown: $OPTARG";;
      :) echo "  silent missing for: $OPTARG";;
      *) echo "  opt $opt ${OPTARG-}";;
    esac
  done
}
echo "10:"; silent -x -b
echo "11:"; silent -a -b arg
set -- -a -b posarg rest
OPTIND=1; while getopts ab: o; do echo "positional: $o ${OPTARG-}"; done; echo "OPTIND=$OPTIND"
OPTIND=1; getopts a o -z 2>/dev/null; echo "error case status $? opt=$o"
OPTIND=1; getopts a o x; echo "non-option status $? opt=$o"
OPTIND=1; getopts a o; echo "no args status $?"
