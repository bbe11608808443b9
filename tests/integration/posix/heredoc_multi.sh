# Several here-documents on one line, in functions, loops, subshells, cmdsubst.
cat <<A; cat <<B
first A
A
then B
B
paste_like() { while read l; do echo "0:$l"; done; while read l <&3; do echo "3:$l"; done; }
paste_like <<X 3<<Y
zero
X
three
Y
f() {
  cat <<EOF2
in function: $1
EOF2
}
f one; f two
for i in 1 2 3; do
  cat <<EOF2
loop $i
EOF2
done
( cat <<EOF2
in subshell
EOF2
)
v=$(cat <<EOF2
in command substitution
EOF2
)
echo "v=$v"
{ cat; } <<EOF2
brace group stdin
EOF2
while read l; do echo "while got: $l"; done <<EOF2
w1
w2
EOF2
if cat <<EOF2
in if condition
EOF2
then echo "if ok"; fi
cat <<EOF2 && echo "and-list after heredoc"
and list
EOF2
g() { cat <<EOF2; }
def-time heredoc $1
EOF2
g A; g B
x=1
cat <<EOF2
x is $x
EOF2
x=2
h() { cat <<EOF2
late x is $x
EOF2
}
x=3; h
case a in a) cat <<EOF2
in case
EOF2
;; esac
cat <<E1 <<E2
discarded first
E1
second wins
E2
eval 'cat <<EOF2
from eval
EOF2'
big=$(i=0; while [ $i -lt 200 ]; do echo "line $i"; i=$((i+1)); done)
cat <<EOF2 | wc -l
$big
EOF2
