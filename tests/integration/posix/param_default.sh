# ${x-w} ${x:-w} ${x=w} ${x:=w} ${x?w} ${x:?w} ${x+w} ${x:+w} for set, empty, unset.
set_v=val; empty_v=; unset unset_v
for name in set_v empty_v unset_v; do
  eval "echo \"$name: -[\${$name-W}] :-[\${$name:-W}] +[\${$name+W}] :+[\${$name:+W}]\""
done
a=; echo "assign :=[${a:=new}] now a=[$a]"
b=; echo "assign =[${b=new}] now b=[$b]"
unset c; echo "assign = on unset [${c=new}] now c=[$c]"
unset d; echo "assign := on unset [${d:=new}] now d=[$d]"
e=keep; echo "assign on set [${e:=new}] e=[$e]"
( : ${unset_v?} ) 2>/dev/null; echo "? on unset exits subshell: $?"
( : ${empty_v?}; echo "? on empty ok" )
( : ${empty_v:?msg} ) 2>/dev/null; echo ":? on empty fails: $?"
( : ${set_v:?msg}; echo ":? on set ok" )
$TESTSH -c ': ${nope?}; echo never' 2>/dev/null; echo "? in -c shell: $?"
echo "word expanded: ${unset_v:-$set_v and $(echo cmd) and $((1+1))}"
echo "word not expanded when unused: ${set_v:-$(echo SHOULD-NOT-RUN >&2)}"
n=0; : ${set_v:-$((n=5))}; echo "side effect skipped: n=$n"
n=0; : ${unset_v:-$((n=5))}; echo "side effect done: n=$n"
echo "quoted word: ${unset_v:-"a  b"}"
echo "single quoted word: ${unset_v:-'a  $b'}"
echo "in dquotes with squotes: "${unset_v:-'x'}""
echo "in dquotes: ${unset_v:-'x'}"
echo "nested: ${unset_v:-${empty_v:-${set_v}}}"
echo "nested2: ${unset_v-${unset_v2-deep}}"
set -- "a b" c
echo "positional default: ${3:-none} ${1:+has1} ${#}"
echo "special: ${@:-empty} ${*:+star}"
set --
echo "no positional: [${@:-empty}] [${*-x}] [${1-unset1}]"
x=${unset_v:-two  words}; echo "assignment no split: [$x]"
for w in ${unset_v:-p q r}; do printf '<%s>' "$w"; done; echo
for w in "${unset_v:-p q r}"; do printf '<%s>' "$w"; done; echo
for w in ${unset_v:-"p q" r}; do printf '<%s>' "$w"; done; echo
f=; : ${f:=a*}; echo "assign pattern [$f]"
v='*'; echo "star value unquoted in default: ${unset_v:-"$v"}"
echo "${unset_v:-\}}" "${unset_v:-\$}" "${unset_v:-a\"b}"
echo "${set_v:+\}}"
echo ${unset_v:-}end
echo "${unset_v:-}" | od -c | head -1
x=abc; echo "${x:+[$x]}"
echo "${unset_v-a}${unset_v-b}"
