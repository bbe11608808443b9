# break and continue, with and without counts, nested.
for i in 1 2 3 4 5; do
  [ $i = 2 ] && continue
  [ $i = 4 ] && break
  echo "i=$i"
done
for i in a b; do
  for j in 1 2 3; do
    [ $j = 2 ] && continue 2
    echo "$i$j"
  done
  echo "not reached $i"
done
for i in a b; do
  for j in 1 2 3; do
    [ $j = 2 ] && break 2
    echo "b2 $i$j"
  done
done
echo "after break 2"
for i in a b; do
  for j in 1 2; do
    for k in x y; do
      [ $k = y ] && continue 3
      echo "c3 $i$j$k"
    done
  done
done
for i in 1 2; do
  for j in 1 2; do
    break 5
  done
  echo never
done
echo "break with count larger than depth: $?"
i=0
while :; do
  i=$((i+1))
  until false; do
    [ $i -ge 3 ] && break 2
    continue 2
  done
done
echo "while/until nest i=$i"
for i in 1 2 3; do
  case $i in 2) continue;; esac
  echo "case continue $i"
done
for i in 1 2 3; do
  if [ $i = 2 ]; then break; fi
  echo "if break $i"
done
for i in 1 2; do { echo "group $i"; break; }; done
for i in 1 2 3; do echo "pipe $i" | cat; [ $i = 2 ] && break; done
i=0; while [ $i -lt 5 ]; do i=$((i+1)); [ $((i%2)) = 0 ] && continue; echo "odd $i"; done
for i in 1 2 3; do false; continue; done; echo "status after continue: $?"
for i in 1 2 3; do true; break; done; echo "status after break: $?"
