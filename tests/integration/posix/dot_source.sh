# . (dot): current-shell execution, PATH lookup, return, arguments, status.
cat > lib.sh <<'EOF2'
libvar="set by lib"
libfn() { echo "libfn called"; }
echo "lib sees \$1=${1-none}"
EOF2
. ./lib.sh
echo "$libvar"; libfn
cat > ret.sh <<'EOF2'
echo "before return"
return 3
echo "after return"
EOF2
. ./ret.sh; echo "return from dot: $?"
cat > last.sh <<'EOF2'
false
EOF2
. ./last.sh; echo "status of last cmd: $?"
: > empty.sh; false; . ./empty.sh; echo "empty file status: $?"
mkdir pdir; echo 'echo "found via PATH"' > pdir/pathlib.sh
PATH=$PWD/pdir:$PATH . pathlib.sh 2>/dev/null || { OLDP=$PATH; PATH=$PWD/pdir:$PATH; . pathlib.sh; PATH=$OLDP; }
f() { . ./ret.sh; echo "in function after dot: $?"; }; f
cat > nested.sh <<'EOF2'
echo "nested level ${level:=0}"
level=$((level+1))
[ $level -lt 3 ] && . ./nested.sh
EOF2
. ./nested.sh
cat > cd.sh <<'EOF2'
cd pdir
EOF2
. ./cd.sh; echo "cwd changed: ${PWD##*/}"; cd ..
cat > loopbrk.sh <<'EOF2'
echo "in loop file"
EOF2
for i in 1 2; do . ./loopbrk.sh; done
( . ./nosuch.sh ) 2>/dev/null; echo "dot missing file: $?"
cat > setpos.sh <<'EOF2'
set -- changed by dot
EOF2
set -- orig; . ./setpos.sh; echo "positional after dot: $*"
