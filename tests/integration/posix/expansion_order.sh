# Expansion results are not expanded again; order of expansions; quote removal.
y=inner
x='$y'; echo "$x" $x
x='$(echo no)'; echo $x
x='`echo no`'; echo $x
x='$((1+1))'; echo $x
x='~'; echo $x
x='"quoted"'; echo $x
x="'single'"; echo $x
x='\*'; echo $x
x='a\ b'; set -- $x; echo "$# [$1] [$2]"
touch f1 f2
x='f*'; echo $x "$x"
x='f[12]'; echo $x
x=$(echo 'f*'); echo $x
IFS=1; x=f1; echo $x; IFS=' '
a='${y}'; eval "echo $a"
echo $(echo '$y')
echo "$(echo '$y')"
echo $((1+$(echo 2)))
n=3; echo $(( n$(echo +) 4 ))
set -- 'a b' c; x="$1"; echo "[$x]"
echo ${x:-'$y'} "${x:+\$y}"
echo "${y#"in"}" "${y#'in'}" ${y#\i}
p='*'; echo "${y#$p}" "${y%"$p"}"
echo '$y'"$y"$y\$y
v=' lead'; echo "[$v]" [$v]
echo \"$y\"
echo "'$y'"
