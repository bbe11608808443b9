# `command` strips special-builtin properties and function lookup.
t() { $TESTSH -c "$1" 2>/dev/null; echo "  => $?"; }
t 'command shift 3; echo "shift error not fatal with command"'
t 'readonly x=1; command export x=2 2>/dev/null; echo "export readonly via command: $?"'
t 'x=1 command :; echo "prefix assignment with command :: ${x-unset}"'
t 'x=1 :; echo "prefix assignment with plain :: ${x-unset}"'
t 'cd() { echo "function cd"; }; cd /; command cd /; pwd'
t 'command -v command'
t 'command command echo double'
t 'command exec echo "command exec"'
t 'command set -- a b; echo "$#"'
t 'command . /nonexistent 2>/dev/null; echo "dot error not fatal: $?"'
