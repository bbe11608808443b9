# A script file is read in blocks; its text must mean the same wherever a block
# ends: in a comment (alone or after a command), a quoted string, a here-document or
# a continued line. The same tail is run with the boundary at 4096 moved through
# every byte of it; each run must print what the uncut script prints. About 280
# runs of the shell: slow under the sanitizers.
# TIMEOUT: 150
i=0
while [ $i -lt 60 ]; do
  echo "# ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
  i=$((i + 1))
done > head.txt
cat > tail.txt <<'TAIL'
echo one # a trailing comment that is long enough to be cut somewhere
# a whole comment line: echo SHOULD-NOT-RUN ; false
x=2; echo "two $x" # comment
if true; then # c
  echo three
fi
cat <<EOF
here # not a comment
EOF
echo 'quoted # not a comment' \
  continued
echo four
TAIL
head_len=$(wc -c < head.txt)
tail_len=$(wc -c < tail.txt)
"$TESTSH" tail.txt > uncut.out 2>&1
cat uncut.out
pad=0
differ=0
while [ $pad -le $((tail_len + 2)) ]; do
  { cat head.txt; printf "%$((4096 - head_len - tail_len + pad - 1))s\n" ''; cat tail.txt; } > cut.sh
  "$TESTSH" cut.sh > cut.out 2>&1
  if ! cmp -s uncut.out cut.out; then
    differ=$((differ + 1))
    [ $differ -eq 1 ] && { echo "differs with pad $pad:"; cat cut.out; }
  fi
  pad=$((pad + 1))
done
echo "runs that differ: $differ"
