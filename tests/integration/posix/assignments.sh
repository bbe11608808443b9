# Variable assignments: prefixes, order, persistence for special builtins and functions.
a=1 b=$a; echo "left to right: b=$b"
x=1; x=2 true; echo "prefix to regular builtin not kept: $x"
y=1; y=2 :; echo "prefix to special builtin : kept: $y"
f() { echo "in f: z=$z"; }; z=1; z=2 f; echo "after function prefix: $z"
A=env_only $TESTSH -c 'echo "child: $A"'; echo "parent: ${A-unset}"
v="a b"; w=$v; echo "[$w]"
v=*; echo "no glob on assignment: $v"
v=$(echo "  s  "); echo "[$v]"
v='x y' w="$v z"; echo "[$w]"
n=; echo "empty: [${n}] set: ${n+yes}"
long_name_with_digits_123=ok; echo $long_name_with_digits_123
_under=ok; echo $_under
v=a; v=${v}b; v="${v}c"; echo $v
i=5; i=$((i*2)); echo $i
eq=a=b; echo $eq
v=first v=second; echo $v
path=/usr; path=$path/bin:$path; echo $path
t1=$(echo "a
b"); echo "$t1"
x=old; x=new eval 'echo "eval sees $x"'; echo "after eval prefix: $x"
c=1; c=2 export c 2>/dev/null; echo "prefix to export: $c"
IFS=: read p q <<EOF2
1:2
EOF2
echo "IFS after prefixed read: [$IFS]" | od -c | head -1
1abc=x 2>/dev/null; echo "not an assignment: $?"
