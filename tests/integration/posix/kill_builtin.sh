# kill: signal names and numbers, -l, status, errors.
# (No SIGINT case: whether an asynchronous command ignores SIGINT races with
# the kill in dash, and POSIX makes it ignored without job control.)
sleep 10 & p=$!; kill $p; wait $p; echo "default TERM: $?"
sleep 10 & p=$!; kill -9 $p; wait $p; echo "-9: $?"
sleep 10 & p=$!; kill -USR1 $p; wait $p; echo "-USR1: $?"
sleep 10 & p=$!; kill -s HUP $p; wait $p; echo "-s HUP: $?"
kill -0 $$; echo "kill -0 self: $?"
kill -l 9; kill -l 15; kill -l 2
kill -l 137 2>/dev/null; echo "kill -l exit status: $?"
kill -l TERM 2>/dev/null || echo "no name->number"
kill 999999 2>/dev/null; echo "kill nonexistent: $?"
kill -NOSUCH $$ 2>/dev/null; echo "bad signal: $?"
kill 2>/dev/null; echo "no operand: $?"
