# Executable files without #! are run by the shell itself (ENOEXEC).
printf 'echo "script without shebang, args: $*"\nexit 3\n' > noshebang
chmod +x noshebang
./noshebang a b; echo "status: $?"
printf 'v=${v-unset}; echo "inherits exported: $EXV, not plain: $v"\n' > s2; chmod +x s2
EXV=yes; export EXV; v=plain; ./s2
printf 'f() { echo "function in noshebang"; }\nf\n' > s3; chmod +x s3; ./s3
printf 'echo "\\$0 is ${0##*/}"\n' > s4; chmod +x s4; ./s4
mkdir d; printf 'echo via PATH\n' > d/pathscript; chmod +x d/pathscript
PATH=$PWD/d:$PATH pathscript
x=$(./noshebang); echo "in cmdsubst: [$x] $?"
./noshebang | cat
printf 'exit 0\n' > empty_ok; chmod +x empty_ok; ./empty_ok; echo "exit 0 script: $?"
: > emptyfile; chmod +x emptyfile; ./emptyfile; echo "empty file: $?"
printf '#!/bin/sh\necho "with shebang $#"\n' > withbang; chmod +x withbang; ./withbang 1 2
# Prefix assignments reach the script however it is started: forked, as the last
# command of a subshell, and by `exec`.
printf 'echo "PV=${PV-unset}"\n' > s5; chmod +x s5
PV=forked ./s5; (PV=tail ./s5); (PV=exec exec ./s5); echo "after: ${PV-unset}"
