# return: status values, from nested constructs, from subshell function.
r() { return $1; }
r 0; echo "r0=$?"
r 1; echo "r1=$?"
r 255; echo "r255=$?"
r 42; echo "r42=$?"
nested() {
  for i in 1 2 3; do
    while true; do
      if [ $i = 2 ]; then return 7; fi
      break
    done
  done
  echo never
}
nested; echo "from nested loops: $?"
sub() { (return 3); echo "after subshell return: $?"; return 4; }
sub; echo "sub: $?"
early() { echo "before"; return 0; echo "after"; }
early
last() { true; false; }
last; echo "implicit last status: $?"
cond() { [ "$1" = yes ]; }
if cond yes; then echo "cond yes true"; fi
if cond no; then :; else echo "cond no false"; fi
cond no && echo never || echo "or branch"
a() { b; echo "a continues after b returned $?"; return 5; }
b() { return 9; }
a; echo "a: $?"
piped() { return 3; }
piped | cat; echo "function in pipeline (not last): $?"
echo x | piped; echo "function last in pipeline: $?"
x=$(r 12); echo "in cmdsubst: $?"
f() { return 3; }; ! f; echo "negated: $?"
f() { if r 6; then :; fi; }; f; echo "if without branch taken: $?"
f() { case x in y) ;; esac; }; false; f; echo "case no match in fn: $?"
