# alias and unalias in scripts (aliases take effect on following lines).
alias greet='echo hello'
greet world
alias ll='echo listing'
ll
alias | sort
alias greet
alias nosuch_alias 2>/dev/null; echo "alias nosuch: $?"
alias multi='echo one;echo two'
multi
alias trailing='echo trail '
alias tgt='target-expanded'
trailing tgt
unalias greet
greet 2>/dev/null || echo "greet removed: $?"
unalias -a
ll 2>/dev/null || echo "all removed"
alias x='echo "quoted value"'; alias x
alias q="echo it's"; alias q
alias kw='if true; then echo kw-alias; fi'
kw
alias r1=r2 r2='echo r2-final'
r1
alias echo='echo recursive-protected'
echo x
unalias echo
unalias nosuch_alias 2>/dev/null; echo "unalias nosuch: $?"
f() { greet2; }
alias greet2='echo alias-defined-after-function'
f 2>/dev/null || echo "alias not used in earlier-defined function"
alias greet3='echo in-same-line'; greet3 2>/dev/null || echo "alias not active on the same line"
