# Redirections on compound commands and functions, and their restoration.
{ echo a; echo b; } > c1; cat c1
( echo sub ) > c2; cat c2
if true; then echo in-if; fi > c3; cat c3
for i in 1 2; do echo "for $i"; done > c4; cat c4
while read l; do echo "w:$l"; done < c4
i=0; until [ $i -ge 2 ]; do echo "u$i"; i=$((i+1)); done > c5; cat c5
case x in x) echo in-case;; esac > c6; cat c6
f() { echo "in f"; }; f > c7; cat c7
g() { echo "g body"; } > c8; g; g; cat c8
h() { cat; } < c1; h
echo "stdout restored after compound"
{ echo x; } 2>/dev/null; echo "stderr restored"
k() { echo "k out"; echo "k err" >&2; } 2>&1; k | sed 's/^/k:/'
{ echo outer; { echo inner; } > c9; echo outer2; } > c10; echo "c9: $(cat c9)"; echo "c10: $(cat c10 | tr '\n' ' ')"
{ read a; read b; } < c1; echo "read two: $a $b"
while read x; do echo "loop stdin: $x"; done <<EOF2
h1
h2
EOF2
echo "after loop"
{ echo "append1"; } >> c11; { echo "append2"; } >> c11; cat c11
exec 3> c12
{ echo to3 >&3; } 3>&1 | cat
exec 3>&-
echo "c12 empty: [$(cat c12)]"
x=0; { x=1; } > /dev/null; echo "brace group redir keeps vars: $x"
y=0; while [ $y -lt 2 ]; do y=$((y+1)); done > /dev/null; echo "loop redir keeps vars: $y"
z=0; f2() { z=9; }; f2 > /dev/null; echo "function redir keeps vars: $z"
{ cd /; } > /dev/null; echo "brace cd persists: $(pwd)"
