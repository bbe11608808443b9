# Lists: ;, &&, ||, precedence (left-associative, equal), grouping, newlines.
true && echo a || echo b
false && echo a || echo b
true || echo a && echo b
false || echo a && echo b
false && echo a && echo b || echo c
true && false || echo "or after failed and"
true || false && echo "and after short-circuited or"
{ false || true; } && echo group
{ echo g1; echo g2; }
{ echo "no space after brace needed before ;"; }
( echo s1 ; echo s2 )
true &&
echo "newline after &&"
false ||
echo "newline after ||"
echo one; echo two ; echo three
x=1; [ $x = 1 ] && { echo "x is 1"; x=2; }; echo "x=$x"
[ 1 = 2 ] || { echo "group on right"; }
if true && true; then echo "and in if"; fi
if false || true; then echo "or in if"; fi
while false || false; do :; done; echo "or in while: $?"
true && { false; } ; echo "status: $?"
! true || echo "negated first"
echo a && ! echo b; echo "status of ! echo: $?"
echo bg1 & wait
{ echo x; } && echo y
: ; : ; echo "colons"
true && (echo sub-in-and) && echo after-sub
