# 200,000 iterations over an indexed array with [[ ]] and (( )): bash and lash only.
a=(); for ((i=0;i<200000;i++)); do a+=($i); done
s=0; for ((i=0;i<200000;i++)); do [[ ${a[i]} == *7* ]] && (( s += a[i] )); done; echo $s
