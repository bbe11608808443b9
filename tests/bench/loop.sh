# Interpreter benchmark: a 300,000-iteration while loop with [ ] and $(( )).
i=0
while [ $i -lt 300000 ]; do
  i=$((i+1))
done
echo $i
