# Subshell isolation: variables, cwd, traps, options, functions, positional params.
x=outer; (x=inner; echo "in: $x"); echo "out: $x"
(cd /; echo "sub pwd: $(pwd)"); [ "$(pwd)" != / ] && echo "cwd isolated"
f() { echo orig-f; }; (f() { echo sub-f; }; f); f
set -- a b; (set -- c; echo "sub \$1=$1"); echo "main \$1=$1"
(set -f; case $- in *f*) echo "sub has -f";; esac); case $- in *f*) echo leak;; *) echo "main no -f";; esac
(exit 3); echo "status: $?"
(true; false); echo "last cmd status: $?"
( (exit 4) ); echo "nested: $?"
( ( (echo deep) ) )
(unset x; echo "sub unset: ${x-u}"); echo "main still: $x"
(export SUBV=1); $TESTSH -c 'echo "export isolated: ${SUBV-u}"'
(umask 077); umask
(trap 'echo sub-exit' EXIT; echo sub-body); echo after
a=1; (a=$((a+1)); echo "sub a=$a"); echo "main a=$a"
(echo one; echo two) | sed 's/^/piped:/'
v=$( (echo nested-in-cmdsubst) ); echo "$v"
(read l; echo "sub read: $l") <<EOF2
input line
EOF2
(alias sa='echo subalias'); alias sa 2>/dev/null || echo "alias isolated"
i=0; while [ $i -lt 3 ]; do (i=100); i=$((i+1)); done; echo "loop i=$i"
(exec true); echo "exec in subshell does not end main"
( exit ) ; echo "bare exit in subshell: $?"
false; ( exit ); echo "bare exit after false: $?"
(readonly rsub=1); rsub=2; echo "readonly isolated: $rsub"
