# Valid but unusual syntax: newlines, keywords as arguments, comments, odd spacing.
echo if then else fi do done case esac while until for in
echo { } ! 
echo a{b c}d
echo a=b
x=1 y=2; echo "$x$y"
case x
in
  x) echo "newline before in";;
esac
case y in
  y)
    echo "pattern body on next line"
    ;;
  z) ;;
esac
case z in z) echo "no trailing ;;"
esac
case w in w) echo "comment after" ;; # trailing comment
esac
for i in a b
do
  echo "do on next line $i"
done
for i
in c d; do echo "in on next line $i"; done
for i in e f; do echo "$i"; done; echo "for then ;"
f ( ) { echo "spaces in def"; }
f
g()
{
  echo "brace on next line"
}
g
h() # comment between
{ echo "after comment"; }
h
echo one \
  two \
  three
echo "comment # inside quotes"  # real comment
echo 'trailing backslash in single quotes\'
ls_alias_like=ls; echo "$ls_alias_like"
{ echo "group no trailing semicolon"
}
( echo "subshell multi-line"
  echo "second line" )
! true; echo "bang status $?"
while false
do
  :
done; echo "while newline do"
i=0
until [ $i = 2 ]
do i=$((i+1))
done; echo "until i=$i"
echo $((
  1 +
  2
))
v=$(
  echo "multi"
  echo "line subst"
)
echo "$v"
echo "tab	separated"	args
echo	tabs	between	words
echo ;echo "semicolon without space"
echo&& echo "and without space"
true||echo never; echo "or without space"
x=$(echo x)y; echo "$x"
set -- a; case $1 in (a) echo "paren pattern in script";; esac
case "" in "") echo "empty quoted pattern";; esac
echo "#" '#' \# x#y
echo ${#}
echo $#x
i=1; echo "$i"th
fn_with_keyword_name_for() { echo "funky name"; }; fn_with_keyword_name_for
