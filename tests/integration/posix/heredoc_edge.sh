# Here-document corner cases: backslashes, quotes, expansions spanning lines.
v=val
cat <<EOF2
backslash-quote \" stays, backslash-single \' stays
backslash-dollar \$v, backslash-backtick \`, backslash-backslash \\
backslash-other \a \n \t stay
"double $v" 'single $v'
${v:+"alt in quotes"} ${unset_v:-'dflt'}
$(echo "cmd
spanning lines")
$((1 +
2))
EOF2
cat <<'EOF2'
quoted: \" \$ \\ "$v" '$v'
EOF2
cat <<EOF2
tab	inside and trailing spaces   
EOF2
cat <<EOF2
EOF2 not at start
  EOF2 indented is not the end
EOF2
cat <<"a b"
delimiter with space
a b
cat <<'$v'
dollar delimiter
$v
cat <<EOF2
$v$v ${v}${v} "$v" $v-$v
EOF2
f() {
cat <<EOF2
function args: $1 $#
EOF2
}
f a b c
cat <<EOF2 | while read -r l; do echo "<$l>"; done
p1
p2
EOF2
x=$(cat <<'EOF2'
in subst, quoted: $v
EOF2
); echo "$x"
cat <<-	EOF2
	tab before delimiter word is not part of it
	EOF2
cat <<EOF2
line ending in backslash joins \
the next line
EOF2
cat <<'EOF2'
quoted: line ending in backslash stays \
EOF2
echo "after"
