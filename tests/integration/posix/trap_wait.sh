# Traps and foreground/background children: a trap runs after the foreground
# command finishes; a trapped signal interrupts `wait` with status 128+N.
trap 'echo "trap USR1 ran"' USR1
(sleep 0.2; kill -USR1 $$) &
sleep 1
echo "after foreground sleep"
wait
sleep 3 & p=$!
(sleep 0.2; kill -USR1 $$) &
wait $p
echo "wait interrupted: $?"
kill $p 2>/dev/null; wait $p 2>/dev/null
wait
trap - USR1
trap 'echo "TERM trapped"' TERM
(sleep 0.2; kill -TERM $$) &
sleep 1
echo "still alive after TERM"
wait
echo end
