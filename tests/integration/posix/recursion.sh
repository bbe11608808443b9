# Recursive functions: factorial, fibonacci, depth counting, mutual recursion.
fact() {
  if [ $1 -le 1 ]; then echo 1; return; fi
  echo $(( $1 * $(fact $(($1 - 1))) ))
}
for n in 0 1 5 10 15; do echo "fact($n)=$(fact $n)"; done
fib() {
  if [ $1 -lt 2 ]; then r=$1; return; fi
  fib $(($1 - 1)); local_a=$r
  set -- $1 $local_a
  fib $(($1 - 2))
  r=$(($2 + r))
}
for n in 1 2 10 15; do fib $n; echo "fib($n)=$r"; done
depth=0
down() { depth=$((depth+1)); [ $1 -gt 0 ] && down $(($1 - 1)); }
down 200; echo "depth reached: $depth"
is_even() { [ $1 -eq 0 ] && return 0; is_odd $(($1 - 1)); }
is_odd() { [ $1 -eq 0 ] && return 1; is_even $(($1 - 1)); }
for n in 0 1 7 10; do if is_even $n; then echo "$n even"; else echo "$n odd"; fi; done
hanoi() {
  [ $1 -eq 0 ] && return
  hanoi $(($1-1)) $2 $4 $3
  moves=$((moves+1))
  hanoi $(($1-1)) $4 $3 $2
}
moves=0; hanoi 6 A C B; echo "hanoi moves: $moves"
countargs() { if [ $# -gt 0 ]; then shift; countargs "$@"; echo "unwind $#"; fi; }
countargs a b c
