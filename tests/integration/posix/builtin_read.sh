# read: -r, IFS, backslash continuation, last-field rest, EOF status.
show() { printf '%s:' "$#"; for a; do printf '<%s>' "$a"; done; echo; }
read a b c <<EOF2
one two three four five
EOF2
show "$a" "$b" "$c"
read a <<EOF2
   leading and trailing   
EOF2
show "$a"
read -r a <<'EOF2'
back\slash \n kept
EOF2
show "$a"
read a <<'EOF2'
back\slash \n removed
EOF2
show "$a"
read a b <<'EOF2'
continued \
line here
EOF2
show "$a" "$b"
read -r a b <<'EOF2'
not continued \
EOF2
show "$a" "$b"
read a b <<'EOF2'
escaped\ space rest
EOF2
show "$a" "$b"
IFS=: read a b c <<EOF2
x:y:z:w
EOF2
show "$a" "$b" "$c"
IFS=: read a b <<EOF2
x::z
EOF2
show "$a" "$b"
IFS=: read a b c <<EOF2
:lead:
EOF2
show "$a" "$b" "$c"
IFS=' :' read a b c <<EOF2
 p : q r : s
EOF2
show "$a" "$b" "$c"
IFS= read a <<EOF2
   keep all   
EOF2
show "$a"
IFS=, read a b <<EOF2
one,two,
EOF2
show "$a" "$b"
IFS=, read a b <<EOF2
one,two,three,
EOF2
show "$a" "$b"
read a b <<EOF2
single
EOF2
show "$a" "$b"
printf 'no newline' | { read a; echo "status $? [$a]"; }
printf '' | { read a; echo "empty input status $? [$a]"; }
printf 'x\n' | { read a; read b; echo "second read status $? [$b]"; }
printf 'l1\nl2\nl3' > lines
n=0; while read l; do n=$((n+1)); done < lines; echo "lines read: $n (last unterminated skipped)"
n=0; while read l || [ -n "$l" ]; do n=$((n+1)); done < lines; echo "with || test: $n"
read a b c <<EOF2
a  b
EOF2
show "$a" "$b" "$c"
echo "val" | read piped; echo "piped read in subshell: [${piped-unset}]"
read -r 2>/dev/null </dev/null; echo "read no var name: $?"
printf 'a\tb\n' | { read x y; show "$x" "$y"; }
printf 'a\\\\b\n' | { read x; show "$x"; }
printf 'a\\\\b\n' | { read -r x; show "$x"; }
read a <<EOF2
$HOME-not-special
EOF2
[ "$a" = "$HOME-not-special" ] && echo "heredoc expanded before read"
read -r a <<'EOF2'
*
EOF2
show "$a"
printf 'one\ntwo\n' > two; { read a; read b; } < two; show "$a" "$b"
readonly ro=1; read ro <<EOF2 2>/dev/null
x
EOF2
echo "read into readonly: $? ro=$ro"
