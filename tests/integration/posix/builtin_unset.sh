# unset: -v (default), -f, readonly, nonexistent, functions and vars with the same name.
x=1; unset x; echo "x=${x-unset}"
y=1; unset -v y; echo "y=${y-unset}"
unset never_set; echo "unset nonexistent: $?"
f() { echo f; }
unset -f f; f 2>/dev/null || echo "f removed"
g=var; g() { echo "func g"; }
unset g; echo "g var=${g-unset}"; g
unset -f g; g 2>/dev/null || echo "func g removed"
a=1 b=2 c=3; unset a b; echo "a=${a-u} b=${b-u} c=$c"
readonly r=1; (unset r) 2>/dev/null; echo "unset readonly: $?"
export e=1; unset e; $TESTSH -c 'echo "child e=${e-unset}"'
set -u; unset z; ( echo "$z" ) 2>/dev/null; echo "set -u after unset: $?"; set +u
v=1; f() { unset v; }; f; echo "unset in function: ${v-unset}"
unset -f nosuchfunc; echo "unset -f nonexistent: $?"
PATH_SAVE=$PATH; unset PATH; PATH=$PATH_SAVE; echo "PATH restored"
IFS=:; unset IFS; set -- $(echo "a b:c"); echo "unset IFS splits default: $#"
