# set -f (noglob) and set -a (allexport).
touch a1 a2 b1
set -f; echo a*; set +f; echo a*
set -f; for f in *; do echo "f: $f"; done; set +f
set -o noglob; x=*; echo $x; set +o noglob; echo $x
set -f; case a1 in a*) echo "case still matches with -f";; esac; set +f
set -f; v=a1b; echo "${v%b*}" "${v#a*}"; set +f
set -f; set -- *; echo "$# $1"; set +f
set -a
ex1=exported; ex2=$(echo also)
set +a
notex=plain
$TESTSH -c 'echo "ex1=${ex1-u} ex2=${ex2-u} notex=${notex-u}"'
set -a; f() { inf=1; }; f; set +a; $TESTSH -c 'echo "in function: ${inf-u}"'
set -a; read rd <<EOF2
readval
EOF2
set +a; $TESTSH -c 'echo "read var: ${rd-u}"'
set -a; : ${dflt=defaulted}; set +a; $TESTSH -c 'echo "default assign: ${dflt-u}"'
set -a; for lv in loopval; do :; done; set +a; $TESTSH -c 'echo "for var: ${lv-u}"'
set -a; getopts x go -x; set +a; $TESTSH -c 'echo "getopts var: ${go-u}"'
