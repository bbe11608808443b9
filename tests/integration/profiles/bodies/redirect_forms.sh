# Body shared by the redirect tests: every write redirection, each to its own file.
# `input.txt` must exist (the RUN line writes it). Reads and /dev/null are always fine.
echo a > r_write; echo "write $?"
echo a >> r_append; echo "append $?"
echo a >| r_clobber; echo "clobber $?"
true <> r_readwrite; echo "readwrite $?"
echo a &> r_both; echo "both $?"
{ echo a; } > r_group; echo "group $?"
(exec > r_exec; echo "in subshell $?" >&2); echo "exec $?"
f() { echo a > r_function; }; f; echo "function $?"
echo discarded > /dev/null; echo "devnull $?"
cat < input.txt; echo "read $?"
for f in r_*; do [ -e "$f" ] && echo "made $f"; done
echo end
