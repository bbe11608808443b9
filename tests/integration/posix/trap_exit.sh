# EXIT traps: main shell, subshells, functions, exit status inside, reset.
$TESTSH -c 'trap "echo exit-trap" EXIT; echo body'
$TESTSH -c 'trap "echo trap sees \$?" EXIT; (exit 5)'; echo "status kept: $?"
$TESTSH -c 'trap "echo trap; exit 9" EXIT; exit 3'; echo "exit in trap overrides: $?"
$TESTSH -c 'trap "echo trap-on-exit-cmd" EXIT; exit 4'; echo "explicit exit: $?"
$TESTSH -c 'trap "echo in-trap" EXIT; false'; echo "last status: $?"
$TESTSH -c 'trap "echo subshell-trap" EXIT; (echo in-sub); echo main-after'
$TESTSH -c '(trap "echo own-sub-trap" EXIT; echo sub-body); echo main-after2'
$TESTSH -c 'trap "echo outer" EXIT; (trap "echo inner" EXIT); echo between'
$TESTSH -c 'trap "echo T" EXIT; trap - EXIT; echo reset'
$TESTSH -c 'trap "echo T2" EXIT; trap "" EXIT; echo ignored'
$TESTSH -c 'trap "echo T3" 0; echo numeric-zero'
$TESTSH -c 'f() { trap "echo fn-trap" EXIT; }; f; echo after-f'
$TESTSH -c 'trap "echo E" EXIT; x=$(echo sub); echo "cmdsubst: $x"'
$TESTSH -c 'trap "echo in-cmdsubst-trap" EXIT; x=$(trap "echo inner-cs" EXIT; echo val); echo "got [$x]"'
$TESTSH -c 'set -e; trap "echo trap-after-set-e" EXIT; false; echo never'; echo "set -e status: $?"
$TESTSH -c 'trap "echo listed" EXIT; trap' 
$TESTSH -c 'trap "echo a" EXIT INT; trap' 
$TESTSH -c "trap 'echo \"quoted '\\''x'\\''\"' EXIT; trap"
$TESTSH -c 'trap "echo trapvar=\$v" EXIT; v=late'
$TESTSH -c 'trap "echo \$0" EXIT' name0
$TESTSH -c 'trap "false" EXIT; true'; echo "trap action status ignored: $?"
$TESTSH -c 'trap "echo one; trap \"echo two\" EXIT" EXIT; echo body'
$TESTSH -c 'trap "echo once" EXIT; exit; echo never'
$TESTSH -c 'f() { exit 6; }; trap "echo via-fn" EXIT; f'; echo "exit from fn: $?"
