# <<- strips leading tabs (not spaces) from body and delimiter line.
cat <<-EOF2
	one tab
		two tabs
	  tab then spaces
  spaces only
	EOF2
cat <<-'EOF2'
	quoted $HOME-not-expanded
	EOF2
if true; then
	cat <<-EOF2
		inside if
	EOF2
fi
f() {
	cat <<-EOF2
		inside function
		EOF2
}
f
cat <<-EOF2
EOF2
echo "empty <<-"
cat <<-EOF2
	line with	inner tab
	EOF2
