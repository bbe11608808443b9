# case: literals, alternatives, default, fallthrough absence, status.
for w in apple banana cherry date ""; do
  case $w in
    apple) echo "$w: fruit a";;
    banana|cherry) echo "$w: b or c";;
    "") echo "empty word";;
    *) echo "$w: default";;
  esac
done
case x in x) echo "one-line";; esac
case x in (x) echo "leading paren";; esac
case x in
  (y) echo no;;
  (x|z) echo "paren alt";;
esac
case abc in
  a*) echo first-match
      ;;
  ab*) echo "never second";;
esac
case foo in bar) echo no;; esac; echo "no match status: $?"
false; case foo in bar) echo no;; esac; echo "no match after false: $?"
case foo in foo) (exit 3);; esac; echo "match status: $?"
case foo in foo) ;; esac; echo "empty body status: $?"
case "a b" in "a b") echo "quoted word match";; esac
v='a*'
case abc in $v) echo "unquoted var is pattern";; esac
case abc in "$v") echo never;; *) echo "quoted var is literal";; esac
case 'a*' in "$v") echo "literal star matches";; esac
case x in
  x)
    echo multi
    echo line
    ;;
esac
case y in x) echo no;; y) echo "last without ;;"
esac
case $undefined in "") echo "unset matches empty";; esac
case in in in) echo "in as word";; esac
r=$(case 1 in 1) echo from-subst;; esac); echo "$r"
case x in x) echo "redir body";; esac > case_out.txt; cat case_out.txt
w=HeLLo; case $w in [Hh]e*) echo "bracket prefix";; esac
case 5 in [0-9]) echo digit;; esac
case - in -) echo dash;; esac
case '\' in '\') echo backslash;; esac
case '*' in \*) echo "escaped star";; esac
case x in \x) echo "escaped x";; esac
for x in 1 2 3; do case $x in 2) continue;; esac; echo "loop $x"; done
case $(echo hi) in hi) echo "subst word";; esac
case hi in $(echo hi)) echo "subst pattern";; esac
