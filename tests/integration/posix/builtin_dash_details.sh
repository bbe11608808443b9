# Details of getopts, umask, ulimit and kill where dash is the reference.
# getopts: OPTARG is '' for an option without argument, OPTIND moves past a
# group at once, ':' silent mode, OPTARG untouched at the end.
set -- -abx -c val -d rest
while getopts :ab:c:d o; do echo "opt $o [${OPTARG-unset}] $OPTIND"; done
echo "end [${OPTARG-unset}] $OPTIND"
OPTIND=1
while getopts ab o -a -q -b; do echo "opt $o [${OPTARG-unset}] $OPTIND"; done 2>/dev/null
# umask: symbolic copies, X, s ignored, bad letters and numbers.
umask 022; umask u=g; umask
umask 077; umask go=u; umask
umask 022; umask ug=rw,o-rwx,a+X; umask -S
umask 0555; umask a+X; umask
umask 022; umask u+s; umask
umask 022; (umask o+t) 2>/dev/null; echo "t: $?"; umask
(umask 8) 2>/dev/null; echo "8: $?"
umask 0; umask u-w+x-r; umask
# ulimit: setting without -H/-S sets both; the last of -H/-S wins; -a format.
(ulimit -n 100; ulimit -Sn; ulimit -Hn)
(ulimit -HS -n 50; ulimit -Sn; ulimit -Hn)
(ulimit -n 1 2) 2>/dev/null; echo "too many: $?"
ulimit -a | sed 's/[0-9][0-9]*$/N/'
# kill: the -l list and exit statuses, usage errors.
kill -l | tr '\n' ' '; echo
kill -l 130; kill -l 137; kill -l 143
(kill -TERM) 2>/dev/null; echo "no pid: $?"
(kill -l 999) 2>/dev/null; echo "bad status: $?"
