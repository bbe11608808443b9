# Quoting: single, double, backslash, mixed, special characters inside quotes.
e() { printf "%s\n" "$*"; }
e 'single $HOME `cmd` \n "dq"'
e "double \$ \` \" \\ \n \a"
e "keeps 'single' inside"
e 'adjacent'"parts"'joined'
e a\ b\	c
e \'\"\\\$
e "multi
line"
e 'multi
line single'
e "tab	inside"
e "$(echo 'inner "double"')"
e "${unset_var:-"default with \"quotes\""}"
e "nested \"$(echo "deep \"q\"")\""
e \#not-comment
e a#b
e a #comment
e "#in quotes"
e \\n
e '\'
e "\\"
e "a\
b"
e 'a\
b'
e a\
b
e "\e\q\z"
e "$"
e "$ "
e '$'
e \$x
x='*'; echo "$x" '$x' $x-nomatch-here
e ""''""
e "" '' | od -c | head -1
e "a""b"'c'd
v="a   b"; echo $v; echo "$v"
e "${v}"x"${v}"
e \"unbalanced-looking\'
e "it's"
e 'say "hi"'
e "\$(not subst)"
e '$(not subst)'
printf '%s\n' "backslash-newline in dq: a\
b"
e "~" '~' ~nosuchuser_xyz
e "end"
