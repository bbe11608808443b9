# if / elif / else: chains, status, conditions that are lists, nesting.
for n in 1 2 3 4; do
  if [ $n = 1 ]; then echo "$n: one"
  elif [ $n = 2 ]; then echo "$n: two"
  elif [ $n = 3 ]
  then
    echo "$n: three"
  else echo "$n: other"
  fi
done
if true; then :; fi; echo "if true empty-ish body: $?"
if false; then :; fi; echo "no branch taken: $?"
if false; then :; else (exit 4); fi; echo "else status: $?"
if (exit 3); then :; elif (exit 5); then :; fi; echo "no elif taken: $?"
if false; true; then echo "condition is a list: last counts"; fi
if true; false; then echo never; else echo "list condition false"; fi
if if true; then false; fi; then echo never; else echo "nested if as condition"; fi
if { echo in-cond; true; }; then echo "group condition"; fi
if x=$(echo val); then echo "assignment condition: $x"; fi
if ! [ -e /nonexistent ]; then echo "negated condition"; fi
if [ a = a ] && [ b = b ]; then echo "and condition"; fi
if [ a = b ] || [ b = b ]; then echo "or condition"; fi
if true
then
  if false
  then echo never
  else
    echo "nested else"
  fi
fi
if true; then echo one-line; else echo never; fi
r=$(if true; then echo "in subst"; fi); echo "$r"
if true; then echo redirected; fi > iff; cat iff
if cat <<EOF2
heredoc condition
EOF2
then echo "heredoc cond ok"; fi
if false; then echo a; elif false; then echo b; elif true; then echo "third elif"; else echo d; fi
f() { if [ "$1" -gt 0 ]; then return 0; else return 1; fi; }
if f 5; then echo "function condition true"; fi
if f 0; then :; else echo "function condition false"; fi
if
  true
then
  echo "newlines everywhere"
fi
