# set -C / noclobber with >, >|, >>, and /dev/null.
echo orig > nc
set -C
echo new > nc 2>/dev/null; echo "clobber refused: $? content=$(cat nc)"
echo forced >| nc; echo "forced: $(cat nc)"
echo appended >> nc; echo "append allowed: $(tail -1 nc)"
echo fresh > nc_new; echo "new file ok: $(cat nc_new)"
echo to-null > /dev/null; echo "dev null allowed: $?"
case $- in *C*) echo "C in \$-";; esac
set +C
echo over > nc; echo "after +C: $(cat nc)"
set -o noclobber
echo again > nc 2>/dev/null; echo "noclobber via -o: $?"
( echo in-sub > nc ) 2>/dev/null; echo "subshell inherits: $?"
set +o noclobber
echo ok > nc; cat nc
set -C; { echo grp > nc; } 2>/dev/null; echo "compound refused: $?"; set +C
set -C; : <> nc; echo "<> not affected: $?"; set +C
