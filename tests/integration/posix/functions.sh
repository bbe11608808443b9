# Function definition, call, arguments, scope, redefinition.
f() { echo "f called with $# args: $*"; }
f
f a b "c d"
g() {
  echo "g: 1=$1 2=$2"
  f "$@"
}
g x "y z"
h()
{
  echo "h on separate lines"
}
h
i() ( echo "subshell body"; x=changed )
x=orig; i; echo "x after subshell-body function: $x"
j() { x=changed-by-j; }
j; echo "x after brace-body function: $x"
set -- outer1 outer2
k() { echo "inside: $1 $#"; shift; echo "inside after shift: $1 $#"; }
k in1 in2 in3
echo "outer positional kept: $1 $2 $#"
f() { echo "redefined f"; }
f
fn_with_if() if true; then echo "if as body"; fi
fn_with_if
fn_for() for a in 1 2; do echo "for body $a"; done
fn_for
fn_case() case $1 in a) echo "case body a";; *) echo "case body other";; esac
fn_case a; fn_case b
fn_while() while false; do :; done
fn_while; echo "while-body status $?"
echo_args() { for a; do printf '[%s]' "$a"; done; echo; }
echo_args "" "a b" '' c
echo_args
v=1; setv() { v=$1; }; setv 2; echo "v=$v"
cnt=0; inc() { cnt=$((cnt+1)); }; inc; inc; inc; echo "cnt=$cnt"
nested_def() { inner() { echo "inner defined by outer"; }; }
nested_def; inner
f1() { echo "$0" >/dev/null; echo "zero unchanged"; }; f1
f_env2() { echo "FOO=${FOO-unset}"; }
FOO=temp f_env2
echo "after call FOO=${FOO-unset}"
fnname_with_underscore_1() { echo ok-underscore; }
fnname_with_underscore_1
out=$(f a b); echo "captured: $out"
f() { return; }; false; f; echo "bare return after false inside? $?"
f() { false; return; }; f; echo "return without arg uses last status: $?"
pipefn() { while read l; do echo "pf:$l"; done; }
printf '1\n2\n' | pipefn
redir_fn() { echo "to stderr" >&2; echo "to stdout"; }
redir_fn 2>/dev/null
def_redir() { echo "def with redir"; } > fn_out.txt
def_redir; cat fn_out.txt
unset -f f; f 2>/dev/null; echo "after unset -f: $?"
