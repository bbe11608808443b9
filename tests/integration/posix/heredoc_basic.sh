# Here-documents: expansion, quoting of the delimiter, special characters.
x=value
cat <<EOF2
plain line
x=$x braces=${x} cmd=$(echo sub) arith=$((2+3))
backslash-dollar \$x and backslash-backslash \\ and lone \ backslash
backquote `echo bq`
double "quotes" and 'single' kept
EOF2
cat <<'EOF2'
quoted delimiter: $x $(echo no) `echo no` \$ \\ \n
EOF2
cat <<"EOF2"
double-quoted delimiter: $x
EOF2
cat <<\EOF2
backslash delimiter: $x
EOF2
cat <<E"O"F2
partly quoted delimiter: $x
EOF2
cat <<EOF2
line continuation \
joined
EOF2
cat <<'EOF2'
no continuation when quoted \
kept
EOF2
cat <<EOF2
EOF2
echo "empty heredoc above"
cat <<EOF2
  leading spaces kept
	leading tab kept
EOF2
cat <<EOF2
not the end: EOF2 
 EOF2
EOF2
cat <<EOF2 | tr a-z A-Z
piped heredoc $x
EOF2
cat <<EOF2 > hd.txt
to file
EOF2
cat hd.txt
read a b <<EOF2
first second third
EOF2
echo "read: a=$a b=$b"
cat << EOF2
space before delimiter
EOF2
cat <<EOF2
${x:+alt} ${y:-default} ${#x}
EOF2
cat <<EOF2
$x"$x"'$x'
EOF2
cat <<-EOF2
	dash form with expansion $x
	EOF2
cat <<EOF2; echo "after heredoc on same line"
body
EOF2
cat <<END
dollar at end $
dollar-space $ x
END
