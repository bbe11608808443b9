# exec: redirections only (they persist), replacing the shell, exec in subshells.
exec 3> fd3.txt
echo "to three" >&3
exec 3>&-
cat fd3.txt
exec 4< fd3.txt; read line <&4; exec 4<&-; echo "read: $line"
exec 5>&1
exec > out.txt
echo "into file"
exec 1>&5 5>&-
echo "back on stdout: $(cat out.txt)"
exec 6>&1; ( exec 1>&6; echo "subshell uses fd 6" ); exec 6>&-
( exec echo "exec replaces subshell"; echo never )
( exec true ); echo "exec true: $?"
( exec false ); echo "exec false: $?"
( exec sh -c 'exit 4' ); echo "exec status: $?"
( exec nosuchcmd_xyz ) 2>/dev/null; echo "exec not found: $?"
$TESTSH -c 'exec echo "exec in -c"; echo never'
$TESTSH -c 'exec; echo "exec without args continues"'
$TESTSH -c 'exec 2>/dev/null; ls /nonexistent; echo "stderr silenced"'
$TESTSH -c 'x=1; exec 3>&1; echo "fd3 open" >&3'
$TESTSH -c 'exec 3<nosuchfile; echo never' 2>/dev/null; echo "exec redirection failure exits: $?"
$TESTSH -c 'exec 0</dev/null; read x; echo "read from devnull: $?"'
$TESTSH -c 'exec 7>f7; echo seven >&7; exec 7>&-; cat f7'
$TESTSH -c 'X=prefix exec $TESTSH -c "echo \$X"'
$TESTSH -c 'trap "echo trap-not-run" EXIT; exec true'; echo "exec skips EXIT trap: $?"
$TESTSH -c 'exec 9>&1; exec 1>/dev/null; echo hidden; echo shown >&9'
