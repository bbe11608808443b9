# Backquote command substitution and backslash handling.
echo "simple: `echo hi`"
echo "nested: `echo \`echo inner\``"
echo "dollar escaped: `echo \$HOME | sed 's/.*/x/'`"
printf '%s\n' "backslash pairs: `printf '%s' 'a\\b'`"
printf '%s\n' `printf '%s' 'a\\b'`
printf '%s\n' "`printf '%s' 'a\\\\b'`"
echo `printf '%s\n' "q\"uote"`
echo "dq in bq in dq: `echo \"inner\"`"
x=`echo  two  words`; echo "[$x]"
echo `echo a; echo b`
echo "mixed: `echo $(echo dollar-in-bq)`"
echo "mixed2: $(echo `echo bq-in-dollar`)"
echo "trailing nl: [`printf 'z\n\n'`]"
v=val; echo "var: `echo $v`"
printf '%s\n' `printf '%s' \\\\`
printf '%s\n' "`printf '%s' \\\\`"
echo `echo '\$'`
echo "`echo '\$'`"
echo `echo \$v`
echo "arith `echo $((1+1))`"
echo "pipe `echo abc | tr b B`"
