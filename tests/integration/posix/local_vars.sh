# local (dash extension used by many scripts): scoping, unset, nesting.
x=global
f() { local x; x=inner; echo "in f: $x"; }
f; echo "after f: $x"
g() { local x=assigned; echo "in g: $x"; h; }
h() { echo "h sees caller's local: $x"; }
g; echo "after g: $x"
k() { local x; echo "local without value: [${x-unset}]"; }
k
m() { local a=1 b=2; echo "$a $b"; }
m; echo "a after m: ${a-unset}"
n() { local x=n1; inner_n() { local x=n2; echo "inner: $x"; }; inner_n; echo "outer after inner: $x"; }
n
r() { local depth=$1; [ $depth -lt 3 ] && r $((depth+1)); echo "unwind depth=$depth"; }
r 0
u() { local x; unset x; echo "unset local: ${x-unset}"; x=set-after-unset; }
u; echo "global after u: $x"
e() { local PATH=/nonexistent; echo "PATH local: $PATH"; }
e; command -v sh >/dev/null && echo "PATH restored"
c() { local v=$(echo "cmd  subst"); echo "[$v]"; }
c
s() { local x="$1"; echo "arg local: $x"; }
s "with space"
ex() { local EXPORTED_LOCAL=1; export EXPORTED_LOCAL; $TESTSH -c 'echo "child sees ${EXPORTED_LOCAL-unset}"'; }
ex; echo "after: ${EXPORTED_LOCAL-unset}"
loc_ifs() { local IFS=:; set -- $1; echo "$# fields"; }
loc_ifs a:b:c; set -- $(echo "p q"); echo "IFS restored: $#"
dash_opt() { local -; set -f; case $- in *f*) echo "f inside";; esac; }
dash_opt; case $- in *f*) echo "f leaked";; *) echo "f restored";; esac
