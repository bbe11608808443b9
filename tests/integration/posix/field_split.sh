# Field splitting: default IFS, whitespace vs non-whitespace, empty and unset IFS.
show() { printf '%s:' "$#"; for a; do printf '<%s>' "$a"; done; echo; }
v='  a  b	c
d  '
show $v
show "$v"
IFS=:
v='a:b::c:'
show $v
v=':a'
show $v
v='a::'
show $v
v=':'
show $v
v='::'
show $v
IFS=': '
v='a : b  :: c'
show $v
v=' : a'
show $v
v='a  ,b'
IFS=' ,'; show $v
IFS=', '; show $v
v='  x , , y '
show $v
IFS=
v='a b:c'
show $v
empty=; show $empty
show "$empty"
unset IFS
v='  a  b	c  '
show $v
IFS=' '
v='  p   q  '
show $v
IFS='	'
v='	t1		t2	'
show $v
IFS='x'
v='axbxxc'
show $v
show ${v}
show "${v}"
show ${v}x
v2=xx; show $v2
IFS=' '
a='1 2'; b='3 4'
show $a$b
show "$a"$b
show $a"$b"
show ${a}x${b}
show $(echo '  c1  c2  ')
show "$(echo '  c1  c2  ')"
show $((1+2))
IFS=0; show $((10+20)); IFS=' '
x='*'; show $x
x=""; show $x $x "$x"
show '' "" ''""
n='a
b'
IFS='
'
show $n
IFS=' '
set -- $v; echo "set from split: $#"
read -r r1 r2 <<EOF2
  lead  and  trail  
EOF2
show "$r1" "$r2"
IFS=: read -r r1 r2 r3 <<EOF2
a:b:c:d
EOF2
show "$r1" "$r2" "$r3"
IFS=: ; v=a:b; for i in $v; do echo "for part $i"; done; IFS=' '
f() { IFS=: ; show $1; IFS=' '; }; f 'x:y:z'
v='a b'; IFS=: ; show $v; IFS=' '
