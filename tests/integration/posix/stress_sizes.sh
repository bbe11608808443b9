# Sizes beyond pipe buffers and small limits: big here-documents (also to a
# command that never reads them), long pipelines, many background jobs.
big=$(i=0; while [ $i -lt 20000 ]; do echo "here-doc line number $i"; i=$((i+1)); done)
cat <<EOF2 | wc -c
$big
EOF2
true <<EOF2
$big
EOF2
echo "unread big here-doc: $?"
cat <<'EOF2' | head -c 20; echo
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
EOF2
x=$(cat <<EOF2
$big
EOF2
); echo "${#x}"
p="echo start"; i=0; while [ $i -lt 60 ]; do p="$p | cat"; i=$((i+1)); done
eval "$p"
i=0; while [ $i -lt 100 ]; do (exit $((i % 7))) & i=$((i+1)); done; wait; echo "100 jobs waited: $?"
i=0; pids=; while [ $i -lt 20 ]; do (exit 3) & pids="$pids $!"; i=$((i+1)); done; wait $pids; echo "wait list: $?"
s=; i=0; while [ $i -lt 2000 ]; do s="$s$i,"; i=$((i+1)); done; echo "${#s}"
set -- $s; IFS=,; set -- $s; IFS=' '; echo "$# fields"
f() { echo "$#"; }; f $(seq 1 5000)
r=$(seq 1 30000 | while read n; do [ $((n % 10000)) = 0 ] && echo $n; done); echo $r
i=0; while [ $i -lt 300 ]; do v=$(echo $i); i=$((i+1)); done; echo "300 substitutions: $v"
i=0; while [ $i -lt 300 ]; do exec 3>/dev/null; exec 3>&-; i=$((i+1)); done; echo "fd churn ok"
