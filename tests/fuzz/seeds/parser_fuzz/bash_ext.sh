a=(one "two three" [5]=x); a+=(z); declare -A m=([k]=v)
[[ ${a[1]} == t* && $x =~ ^(a|b)+$ ]] || (( i++ ))
for (( i=0; i<3; i++ )); do echo ${a[i]:1:2} ${v//x/y} ${v^^} ${!a[@]}; done
cat <<< $'a\tb' |& cat &>> /dev/null; echo {a,b}{1..3..2}
