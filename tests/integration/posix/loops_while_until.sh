# while / until: conditions, status, reading, nesting.
i=0
while [ $i -lt 5 ]; do echo "while $i"; i=$((i+1)); done
echo "while status: $?"
i=0
until [ $i -ge 3 ]; do echo "until $i"; i=$((i+1)); done
while false; do echo never; done; echo "never-run while status: $?"
until true; do echo never; done; echo "never-run until status: $?"
i=0; while i=$((i+1)); [ $i -le 3 ]; do echo "compound cond $i"; done
i=0; while [ $i -lt 3 ]; do i=$((i+1)); (exit $i); done; echo "last body status: $?"
n=0
while :; do n=$((n+1)); if [ $n -gt 4 ]; then break; fi; done; echo "broke at $n"
printf 'l1\nl2\nl3\n' | while read line; do echo "got $line"; done
printf 'a b c\nd e f\n' > in.txt
while read x y; do echo "x=$x y=$y"; done < in.txt
count=0
while read l; do count=$((count+1)); done < in.txt
echo "count in current shell: $count"
i=0; while [ $i -lt 2 ]; do j=0; until [ $j -ge 2 ]; do echo "nest $i$j"; j=$((j+1)); done; i=$((i+1)); done
i=3; while [ $i -gt 0 ]
do
  i=$((i-1))
  echo "countdown $i"
done
while echo cond-once; false; do echo never; done
x=abc; while [ -n "$x" ]; do echo "$x"; x=${x#?}; done
i=0; while test $i -lt 3; do i=`expr $i + 1`; echo "expr $i"; done
f() { i=0; while [ $i -lt 10 ]; do i=$((i+1)); [ $i -eq 3 ] && return 42; done; }
f; echo "return from while in function: $? i=$i"
i=0; while [ $i -lt 1000 ]; do i=$((i+1)); done; echo "thousand: $i"
