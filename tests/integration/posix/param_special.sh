# Special parameters: $? $# $- $0-related $$ consistency, $! after bg.
true; echo "true: $?"
false; echo "false: $?"
(exit 37); echo "subshell exit: $?"
echo "dollar-question twice: $? $?"
set -- a b c; echo "hash: $#"
case $- in *f*) echo "f set";; *) echo "f not set";; esac
set -f; case $- in *f*) echo "f now set";; esac; set +f
set -u; case $- in *u*) echo "u now set";; esac; set +u
[ "$$" -gt 0 ] && echo "pid positive"
p=$$; sub=$(echo $$); [ "$p" = "$sub" ] && echo "\$\$ same in cmdsubst"
( [ "$p" = "$$" ] && echo "\$\$ same in subshell" )
sleep 0 & bg=$!; [ -n "$bg" ] && [ "$bg" != "$$" ] && echo "\$! set"; wait
echo "${#?}" "${#-}" >/dev/null; echo "lengths ok"
x=$(exit 4); echo "cmdsubst assignment status: $?"
x=$(exit 4) y=1; echo "two assignments, status of cmdsubst: $?"
false; x=1; echo "plain assignment status: $?"
false; : ; echo "colon status: $?"
echo "${?}" 
false; echo "braced: ${?}"
set -- 1 2 3 4 5 6 7 8 9 10
echo "$10 vs ${10}"
echo "$#$#"
echo "${1}${2}"
IFS=:; echo "$*"; IFS=' '
set -- ; echo "empty star:[$*] at:[$@]"
echo "\$0 is set:" ${0:+yes}
