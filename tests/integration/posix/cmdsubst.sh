# Command substitution: $( ), nesting, quoting, trailing newlines, status.
echo "simple: $(echo hi)"
echo "nested: $(echo $(echo $(echo deep)))"
echo "trailing newlines stripped: [$(printf 'a\n\n\n')]"
echo "inner newlines kept: [$(printf 'a\n\nb\n')]"
echo "leading newlines kept: [$(printf '\n\na')]"
echo "quotes inside: $(echo "double \"inner\"" 'single')"
echo "$(echo "nested "$(echo "quotes")" work")"
echo "paren in case: $(case x in x) echo matched;; esac)"
echo "paren in case with open paren: $(case x in (x) echo matched2;; esac)"
echo "comment inside: $(echo visible # hidden )
)"
echo "hash not comment: $(echo a#b)"
echo "unbalanced quote-paren: $(echo ')')"
echo "dq paren: $(echo ")(")"
echo "heredoc inside: $(cat <<EOF2
hd
EOF2
)"
x=$(echo "  spaces  "); echo "assignment keeps spaces: [$x]"
set -- $(echo "  a  b  "); echo "split: $# [$1] [$2]"
set -- "$(echo "  a  b  ")"; echo "quoted: $# [$1]"
echo "empty: [$(true)] [$(:)]"
x=$(false); echo "assignment status: $?"
x=$(true); echo "assignment status true: $?"
x=$(exit 5) || echo "assignment failed with $?"
echo "var change not visible: $(y=inner; echo $y) y=${y-unset}"
echo "cd not visible: $(cd /; pwd)"; [ "$(pwd)" != / ] && echo "cwd unchanged"
echo "multi-line: $(echo one
echo two)"
echo "pipeline: $(echo abc | tr a-c x-z)"
echo "arith in subst: $(echo $((6*7)))"
echo "subst in arith: $(( $(echo 3) + $(echo 4) ))"
echo "long: $(i=0; while [ $i -lt 1000 ]; do printf x; i=$((i+1)); done | wc -c)"
echo "stderr passes through:" $(echo err >&2; echo out) 2>/dev/null
f() { echo "from function $1"; }; echo "$(f arg)"
echo "$(echo '$HOME' "\$HOME" \$HOME)"
echo "$( echo spaced )"
echo "$(
echo leading-newline
)"
v=$(printf 'x\n'); echo "${#v}"
echo "$(echo a; echo b >&2)" 2>/dev/null
echo $(echo "*")
printf '%s\n' "$(printf '%s' '\\')"
printf "%s\n" "$(printf %s "a\\b")"
echo "double subst in word: $(echo a)$(echo b)"
echo "in default: ${unset_var:-$(echo dflt)}"
r=$(exit 0; echo not); echo "exit in subst: [$r]"
echo "subshell in subst: $( (echo inner-sub) )"
echo "$(echo $(echo "in nested quotes"))"
a=$(echo 1) b=$(echo 2); echo "two assignments: $a $b"
echo "case pattern inside dq: $(case y in y) echo "yq";; esac)"
