# Arithmetic errors: division by zero, bad syntax, bad numbers -> non-zero status.
t() { $TESTSH -c "$1" 2>/dev/null; echo "[$1] status $?"; }
t 'echo $((1/0))'
t 'echo $((1%0))'
t 'x=0; echo $((5/x))'
t 'echo $((1+))'
t 'echo $((*2))'
t 'echo $((1 2))'
t 'echo $(( (1+2 ))'
t 'echo $((08))'
t 'echo $((0x))'
t 'echo $((09 + 1))'
t 'x=abc; echo $((x+1)); echo after'
t 'x=1a; echo $((x))'
t 'echo $((1/0)); echo after-div'
t 'echo $((a=)); echo after'
t 'echo $((3=4))'
t 'echo $((1?2))'
t 'echo ok $((2+2))'
t 'x=$((1/0)); echo assigned'
t 'readonly r=1; echo $((r=2)); echo after'
( echo $((1/0)) ) 2>/dev/null; echo "subshell div0: $?"
echo "still running"
