# eval: concatenation, quoting, status, variables by name, syntax errors.
eval echo hello
eval 'echo "quoted $((1+1))"'
cmd='echo a; echo b'; eval "$cmd"
eval "x=1 y=2"; echo "x=$x y=$y"
name=dyn; eval "$name=value"; eval "echo \$$name"
eval; echo "empty eval: $?"
eval ''; echo "empty string eval: $?"
false; eval; echo "empty eval after false: $?"
eval 'false'; echo "eval false: $?"
eval '(exit 9)'; echo "eval subshell: $?"
eval 'f() { echo "defined in eval"; }'; f
eval 'for i in 1 2; do echo "eval loop $i"; done'
eval "echo 'single' \"double\""
eval 'echo $#' a b
set -- p q r; eval 'echo "$2"'
eval eval echo nested
a='$b'; b='$c'; c=final; eval eval echo $a
eval 'case x in x) echo eval-case;; esac'
eval 'cat <<EOF2
heredoc in eval
EOF2'
v='a  b'; eval "echo $v"; eval "echo \"$v\""
( eval 'echo ok; if' ) 2>/dev/null; echo "syntax error in eval: $?"
eval 'return 2>/dev/null' ; echo "return outside function in eval: $?"
g() { eval 'return 4'; echo never; }; g; echo "return in eval in function: $?"
for i in 1 2 3; do eval 'if [ $i = 2 ]; then break; fi'; echo "loop $i"; done
eval 'echo line1
echo line2'
i=5; eval "i=\$((i+1))"; echo "i=$i"
eval 'exit_code() { return $1; }'; exit_code 3; echo "eval-defined status: $?"
eval "echo \$(echo subst)"
eval 'x=$(printf "%s" "a b")'; echo "[$x]"
