# Signal traps: self-kill, ignore, reset, traps run between commands, subshell reset.
$TESTSH -c 'trap "echo got USR1" USR1; kill -USR1 $$; echo after'
$TESTSH -c 'trap "echo got TERM" TERM; kill -TERM $$; echo after-term'
$TESTSH -c 'trap "echo got HUP" HUP; kill -HUP $$; echo after-hup'
$TESTSH -c 'trap "echo got INT" INT; kill -INT $$; echo after-int'
$TESTSH -c 'trap "echo got USR2" 12; kill -USR2 $$; echo numeric'
$TESTSH -c 'trap "" USR1; kill -USR1 $$; echo ignored-survives'
$TESTSH -c 'trap "echo x" USR1; trap - USR1; kill -USR1 $$; echo never'; echo "default action status: $?"
$TESTSH -c 'kill -TERM $$; echo never'; echo "killed by TERM: $?"
$TESTSH -c 'trap "echo usr1-count" USR1; kill -USR1 $$; kill -USR1 $$; echo done'
$TESTSH -c 'trap "echo handler; exit 7" USR1; kill -USR1 $$; echo never'; echo "exit in handler: $?"
$TESTSH -c 'trap "echo t" USR1; (trap) ; echo "subshell listing above (empty)"'
$TESTSH -c 'trap "" USR1; ( kill -USR1 $$ 2>/dev/null; kill -USR1 $(exec $TESTSH -c "echo \$PPID") 2>/dev/null; echo sub-ignores )' 2>/dev/null
$TESTSH -c 'trap "echo a" USR1 USR2; trap'
$TESTSH -c 'trap "echo in-fn" USR1; f() { kill -USR1 $$; echo after-kill-in-f; }; f'
$TESTSH -c 'trap "echo status in trap \$?" USR1; false; kill -USR1 $$; echo "after, status $?"'
$TESTSH -c 'trap "echo caught" USR1; sleep 5 & p=$!; kill -USR1 $$; kill $p; wait $p; echo "wait after kill: $?"'
$TESTSH -c 'trap "echo bad" NOSUCHSIG' 2>/dev/null; echo "bad signal name: $?"
$TESTSH -c 'trap - USR1; trap "" TERM; trap'
