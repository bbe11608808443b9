# A trapped TERM is the shell's: the foreground command is not killed by it and
# finishes; the trap runs once it has.
trap 'echo "trap ran"' TERM
(sleep 0.3; kill -TERM $$) &
sleep 1
echo "sleep status $?"
wait
