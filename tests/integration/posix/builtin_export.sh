# export, readonly, -p listings, environment passing to children.
export A=1
B=2; export B
export C
sh_child() { $TESTSH -c "$1"; }
sh_child 'echo "child sees A=$A B=$B C=${C-unset}"'
export -p | grep -E "^export (A|B|C)(=|$)"
readonly R=ro
readonly -p | grep -E "^readonly R="
( R=changed ) 2>/dev/null; echo "readonly assignment in subshell: $?"
( unset R ) 2>/dev/null; echo "unset readonly: $?"
readonly RO2; readonly -p | grep -E "RO2"
export E="with 'quotes' and \$dollar"
export -p | grep -E "^export E="
sh_child 'printf "%s\n" "$E"'
unexported=here; sh_child 'echo "unexported: ${unexported-unset}"'
X=temp sh_child 'echo "prefix assignment: $X"'; echo "after prefix: ${X-unset}"
export A=newval; sh_child 'echo "A updated: $A"'
unset A; sh_child 'echo "A after unset: ${A-unset}"'
export M1=a M2=b; sh_child 'echo "$M1$M2"'
export N="two words"; sh_child 'echo "[$N]"'
f() { export INF=fromfunc; }; f; sh_child 'echo "export in function: $INF"'
( export SUBX=1 ); sh_child 'echo "export in subshell: ${SUBX-unset}"'
export EMPTY=; sh_child 'echo "empty exported: [${EMPTY-unset}]"'
readonly RX=1; export RX; export -p | grep -E "^export RX="; readonly -p | grep -E "^readonly RX="
( export 1bad=x ) 2>/dev/null; echo "export bad name: $?"
( readonly 2bad=x ) 2>/dev/null; echo "readonly bad name: $?"
set -a; AUTO=auto; set +a; sh_child 'echo "set -a: $AUTO"'
