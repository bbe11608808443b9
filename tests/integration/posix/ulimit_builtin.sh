# ulimit: set and read soft limits (in subshells so the main shell keeps its own).
(ulimit -n 64; ulimit -n)
(ulimit -c 0; ulimit -c)
(ulimit -S -n 32; ulimit -S -n)
(ulimit -n 16; $TESTSH -c 'ulimit -n')
(ulimit -f 1000; ulimit -f)
(ulimit -n abc) 2>/dev/null; echo "bad value: $?"
(ulimit -t unlimited; ulimit -t)
