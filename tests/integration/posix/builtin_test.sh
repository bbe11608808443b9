# test / [ with 0-4 arguments, string, integer and file operators.
t() { if test "$@"; then r=0; else r=$?; fi; echo "test $* -> $r"; }
b() { if [ "$@" ]; then r=0; else r=$?; fi; echo "[ $* ] -> $r"; }
t
t ''
t x
t -n
t -z
t !
t -n ''
t -n x
t -z ''
t -z x
t x = x
t x = y
t x != y
t '' = ''
t ! x
t ! ''
t ! -n ''
t ! x = y
t 1 -eq 1
t 1 -ne 1
t 2 -gt 1
t 2 -ge 3
t 1 -lt 2
t 3 -le 3
t -5 -lt 0
t 007 -eq 7
t ' 7' -eq 7
t abc '<' abd
t abc '>' abd
t '(' x ')'
t '(' '' ')'
t -e /
t -d /
t -f /
t -e /nonexistent
t = = =
t ! = x
t -n = -n
t x -a y
t x -a ''
t '' -o y
t '' -o ''
t ! '(' x = y ')'
b
b x
b x = x
b 1 -gt 2
b -z ''
b ! -z x
mkdir d; touch f; printf data > s; ln -s f l; ln -s nowhere dangling; mkfifo p
chmod 644 f; chmod 755 d
for op in -e -f -d -s -L -h -p -r -w -x -b -c -S; do
  printf '%s:' "$op"
  for x in d f s l dangling p nosuch /dev/null; do if test $op $x; then printf ' %s' "$x"; fi; done
  echo
done
touch -d '2000-01-01' old; touch new
t new -nt old
t old -nt new
t old -ot new
t f -ef l
t f -ef s
t -t 0 </dev/null
