# A background job that has ended no longer takes signals: `kill -0` fails for it, so
# a `while kill -0 "$pid"` loop ends (an unreaped zombie would keep it going).
sleep 0.1 &
p=$!
sleep 0.5
if kill -0 "$p" 2>/dev/null; then echo "still alive"; else echo "gone"; fi
sleep 0.2 &
q=$!
n=0
while kill -0 "$q" 2>/dev/null && [ $n -lt 50 ]; do n=$((n + 1)); sleep 0.1; done
[ $n -lt 50 ] && echo "loop ended"
wait "$q"; echo "wait status $?"
# The same poll from a pipeline member while the shell waits for that pipeline: the
# job is reaped by the waiting shell, or the loop would never end.
sleep 0.3 &
r=$!
echo | { n=0; while kill -0 "$r" 2>/dev/null && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.05; done; [ $n -lt 100 ] && echo "pipeline poll ended"; }
wait "$r"; echo "wait status $?"
