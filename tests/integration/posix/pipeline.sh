# Pipelines: exit status of the last command, !, subshell semantics, long pipes.
true | false; echo "true|false: $?"
false | true; echo "false|true: $?"
(exit 3) | (exit 4); echo "last wins: $?"
! true; echo "! true: $?"
! false; echo "! false: $?"
! (exit 5); echo "! 5: $?"
! true | false; echo "! true|false: $?"
echo abc | tr a-z A-Z | sed 's/B/-/' | cat
x=unchanged; echo changed | read x; echo "last pipeline part is subshell: $x"
y=1; y=2 | true; echo "assignment in pipeline: $y"
echo a | { read v; echo "group got $v"; }
printf '3\n1\n2\n' | sort | head -1
i=0; printf 'a\nb\nc\n' | while read l; do i=$((i+1)); done; echo "while in pipe i=$i"
yes | head -3
seq 1 10000 | tail -1
echo x | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat
cat /dev/null | wc -l
echo "to stderr" 2>&1 >&2 | wc -l
f() { echo "func out"; }; f | tr a-z A-Z
echo hi | (exit 7); echo "subshell last: $?"
true |
  false
echo "newline after pipe: $?"
echo a |

cat
! true && echo never || echo "negated in list"
if ! false; then echo "negation in if"; fi
while ! true; do :; done; echo "negation in while"
echo "stdin of first is script stdin" | cat - 
printf 'l1\nl2\n' | { head -1; cat; }
exec 3>&1; s=$( { false; echo $? >&3; } | true ); exec 3>&-
