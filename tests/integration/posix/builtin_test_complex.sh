# test: -a/-o precedence, parentheses, and errors (status 2).
t() { test "$@" 2>/dev/null; echo "test $* -> $?"; }
t x -a y -o ''
t '' -a y -o x
t x -o '' -a ''
t '(' x -o '' ')' -a ''
t ! '' -a x
t '(' '(' x ')' ')'
t 1 -eq 1 -a 2 -eq 2 -a 3 -eq 4
t 1 -eq 2 -o 2 -eq 3 -o 4 -eq 4
t -n x -a -z ''
t x = x -a y != z
t abc -eq 1
t 1 -eq abc
t 1 -eq
t 1 2 3
t '(' x
t x ')'
t -f
t -nonsense x
t 1 -gt 2 3
t x y
t 9223372036854775807 -gt 9223372036854775806
t -1 -lt 1
t + = +
t -a = -a
t '(' = '('
[ x 2>/dev/null; echo "[ missing bracket -> $?"
[ x ] ]  2>/dev/null; echo "[ extra bracket -> $?"
test 1 -eq 1 && test 2 -eq 2 && echo "chained and"
[ -z "" ] || echo never
v="-n"; t "$v"
v="!"; t "$v" x
