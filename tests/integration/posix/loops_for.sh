# for loops: word lists, expansions in the list, no `in`, empty lists.
for i in a b c; do echo "item $i"; done
for i in; do echo "never $i"; done
echo "after empty list: i=${i-unset}"
for i in 1 2 3
do
	echo "multi-line $i"
done
list="x y  z"
for w in $list; do echo "split <$w>"; done
for w in "$list"; do echo "quoted <$w>"; done
set -- one "two words" three
for a; do echo "implicit <$a>"; done
for a
do echo "implicit newline <$a>"
done
for a in "$@"; do echo "at <$a>"; done
for a in $*; do echo "star <$a>"; done
for a in "$*"; do echo "qstar <$a>"; done
for i in 1 2 3; do :; done; echo "loop var keeps last: $i"
for i in $(echo p q r); do printf '%s,' "$i"; done; echo
for i in `echo bq1 bq2`; do printf '%s;' "$i"; done; echo
for do in a b; do echo "do as var: $do"; done
for i in a b; do for j in 1 2; do printf '%s%s ' "$i" "$j"; done; done; echo
for i in a b c; do echo "$i"; done | sort -r
for i in 1 2; do echo "$i"; done > out.txt; cat out.txt
for i in 1 2 3; do false; done; echo "status after false loop: $?"
for i in; do false; done; echo "status after empty loop: $?"
false; for i in; do :; done; echo "empty loop resets status: $?"
for i in a; do (exit 7); done; echo "status of last body cmd: $?"
f() { for x in "$@"; do echo "f:$x"; done; }
f "a b" c
x=0; for i in 1 2 3 4 5; do x=$((x+i)); done; echo "sum=$x"
for i in */ ; do echo "nomatch glob in list: $i"; done
for i in "a
b"; do echo "newline in word: [$i]"; done
