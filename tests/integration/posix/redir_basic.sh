# Redirection operators: > >> < <> >| n> n< and file creation.
echo one > f1; cat f1
echo two >> f1; cat f1
echo three > f1; cat f1
cat < f1
cat 0< f1
echo err 2> f2 >&2; echo "f2: $(cat f2)"
echo to-fd3 3> f3 >&3; cat f3
: > empty; echo "empty size: $(wc -c < empty)"
> alone; [ -f alone ] && echo "bare redirection creates file"
>> alone2; [ -f alone2 ] && echo "bare append creates file"
echo x >| f4; cat f4
echo rw <> f5; echo "f5 exists: $([ -f f5 ] && echo yes)"
echo data > f6; cat <> f6
echo "spaces" >    f7; cat f7
echo "no space" >f8; cat<f8
echo multiple > m1 > m2; echo "m1=[$(cat m1)] m2=[$(cat m2)]"
name=var_target; echo "to var" > $name; cat var_target
name='has space'; echo "to quoted" > "$name"; cat "has space"
echo glob > g*.txt 2>/dev/null; ls g*
cat < nosuch 2>/dev/null; echo "missing input status: $?"
echo x > /nonexistent/dir/file 2>/dev/null; echo "bad output status: $?"
{ echo in-group; } > grp; cat grp
echo before; exec 3> f9; echo via3 >&3; exec 3>&-; cat f9
echo a > f10; echo b >> f10; echo c >> f10; wc -l < f10
cat f10 f10 > f11; wc -l < f11
2>&1 echo "redirect first"
> f12 echo "redirect before command"; cat f12
echo 1>f13 split; cat f13
echo a 1>&1; echo "dup to self ok"
x=5 > f14 echo "assignment and redirect"; cat f14
echo "here" > f15 && cat f15 && rm f15 && [ ! -e f15 ] && echo removed
echo "abc" > f16; read v < f16; echo "read from file: $v"
echo 'line1
line2' > f17; { read a; read b; } < f17; echo "$a/$b"
exec 4< f17; read l1 <&4; read l2 <&4; exec 4<&-; echo "fd4: $l1 $l2"
echo "digit word" 1 > f18; cat f18
ls nosuch-file 2> err.txt; [ -s err.txt ] && echo "stderr captured"
