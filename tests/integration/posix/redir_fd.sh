# fd duplication, closing, and order of application.
f() { echo "out"; echo "err" >&2; }
f > o1 2>&1; echo "[>f 2>&1]"; sort o1
f 2>&1 > o2 | sed 's/^/pipe:/'; echo "[2>&1 >f]"; cat o2
f 2> o3 1>&2; echo "[2>f 1>&2]"; sort o3
f 3>&1 1>&2 2>&3 2>/dev/null | cat; echo "[swap then drop]"
{ f 3>&1 1>&2 2>&3; } 2>&1 >/dev/null | sed 's/^/swapped:/'
echo closed >&- 2>/dev/null; echo "write to closed stdout status: $?"
exec 5>o5; echo five >&5; exec 5>&-; cat o5
exec 6>&1; exec 1>o6; echo into-o6; exec 1>&6 6>&-; echo "back: $(cat o6)"
exec 7<o5; cat <&7; exec 7<&-
{ echo g1; echo g2 >&2; } 2>&1 | sed 's/^/grp:/'
( echo s1; echo s2 >&2 ) 2>&1 >/dev/null | sed 's/^/sub:/'
cat <&- 2>/dev/null; echo "cat with closed stdin: $?"
echo to-3 3>o7 >&3; cat o7
echo dup 3>&1 4>&3 >&4 | cat
exec 3>o8; { echo in-brace >&3; } ; exec 3>&-; cat o8
echo x 2>&1 1>/dev/null | wc -c
: 9>o9; [ -f o9 ] && echo "fd 9 opened"
{ echo a; echo b; } >o10 2>&1; cat o10
exec 3>&1; v=$(echo captured >&3; echo value); exec 3>&-; echo "v=$v"
g() { echo "in g" >&3; }; g 3>&1
h() { echo h-out; } ; h 1>&2 2>/dev/null | cat; echo "[h to stderr]"
ls /nonexistent 2>&1 >/dev/null | grep -q . && echo "stderr via pipe"
echo "dup of unopened fd:"; echo x >&8; echo "status: $?"
echo 'bad: ' 2>/dev/null >&8; echo "status2: $?"
# External commands: a source set up by an earlier redirection of the same command
# exists only in the child (the stdout/stderr swap, and a file opened then dup'ed).
ls /nonexistent-redir-fd 3>&1 1>&2 2>&3 | sed 's/.*/swapped: got stderr on the pipe/'
t=${TMPDIR:-/tmp}/redir_fd_ext.$$
/bin/echo via three 3>"$t" 1>&3
cat "$t"; rm -f "$t"
/bin/echo closed 3>&- 1>&3 2>/dev/null; echo "closed then dup: $?"
