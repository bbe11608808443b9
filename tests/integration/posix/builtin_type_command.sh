# type, command -v, command -V, command NAME (bypassing functions).
f() { echo "function f"; }
alias al='echo aliased'
type cd
type f
type if
type while
type export
type :
type al
type nosuch_cmd_xyz >/dev/null 2>&1; echo "type nosuch: $?"
command -v cd
command -v f
command -v if
command -v al
command -v nosuch_cmd_xyz; echo "command -v nosuch: $?"
command -v /bin/sh
command -V cd
command -V f
command -V export
command -V while
echo() { printf 'wrapped: %s\n' "$*"; }
echo via function
command echo via builtin
unset -f echo
command -p true && echo "command -p ok"
command true; echo "command true: $?"
command false; echo "command false: $?"
command nosuch_cmd_xyz 2>/dev/null; echo "command nosuch: $?"
x=1; command eval 'x=2'; echo "command eval: x=$x"
( command exit 3 ); echo "command exit in subshell: $?"
command -v echo
mkdir bin; printf '#!/bin/sh\necho my-tool\n' > bin/mytool; chmod +x bin/mytool
PATH=$PWD/bin:$PATH
type mytool | sed "s|$PWD|DIR|"
command -v mytool | sed "s|$PWD|DIR|"
mytool
