# Background jobs: $!, wait with and without operands, exit statuses.
(exit 3) & p=$!
wait $p; echo "wait pid: $?"
(sleep 0; exit 5) & p1=$!
(exit 6) & p2=$!
wait $p2; echo "second: $?"
wait $p1; echo "first: $?"
echo bg-output & wait; echo "plain wait: $?"
wait; echo "wait with nothing: $?"
{ echo in-group-bg; } & wait
i=0; for n in 1 2 3; do (exit $n) & done; wait; echo "wait all: $?"
false & wait $!; echo "false bg: $?"
true & wait $!; echo "true bg: $?"
sh_bg() { sleep 0; echo "function in bg"; }; sh_bg & wait
x=before; x=after & wait; echo "bg assignment not visible: $x"
cd / & wait; [ "$(pwd)" != / ] && echo "bg cd not visible"
wait 999999 2>/dev/null; echo "wait unknown pid: $?"
sleep 10 & p=$!; kill $p; wait $p; echo "terminated: $?"
sleep 10 & p=$!; kill -KILL $p; wait $p; echo "killed: $?"
[ "$!" = "$p" ] && echo "\$! is last bg pid"
echo ordered1 > o & wait; cat o
r=$(sleep 0 & echo in-subst-bg); echo "$r"
(exit 7) & p=$!; sleep 0; wait $p; echo "reap later: $?"
