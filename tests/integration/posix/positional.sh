# Positional parameters: set --, shift, $#, ${10}, "$@" preservation.
show() { printf '%s:' "$#"; for a; do printf '<%s>' "$a"; done; echo; }
set -- a b c
show "$@"
shift; show "$@"
shift 2; show "$@"
set -- 1 2 3 4 5 6 7 8 9 10 11 12
echo "tenth=${10} eleventh=${11} \$10=$10"
echo "count=$#"
shift 10; show "$@"
set --; show "$@"
echo "empty count=$#"
set -- "a b" "" "c"
show "$@"
show $@
show "$*"
set -- -x -y; show "$@"
set -- -; show "$@"
set - ; echo "after set - : $#"
set -- "$@" appended; show "$@"
set -- first "$@"; show "$@"
f() { set -- inside; show "$@"; }
set -- outer; f; show "$@"
set -- a b c; shift 0; show "$@"
(shift 5) 2>/dev/null; echo "shift too many in subshell: $?"
set -- a b; (shift 3 2>/dev/null; echo never); echo "shift too many is fatal: $?"; show "$@"
set -- x y z
eval "echo \"last via eval: \${$#}\""
i=1; for a; do echo "arg $i=$a"; i=$((i+1)); done
set -- "$(printf 'p\nq')"; show "$@"
IFS=,; set -- $(echo "a,b,,c"); IFS=' '; show "$@"
set -- 'with  spaces' tab'	'x; show "$@"
set -- a b c d e f g h i j; echo "$1$2$3 ${9}${10}"
set -- $(seq 1 100); echo "100 args: $# last=${100}"
set a b c; show "$@"
