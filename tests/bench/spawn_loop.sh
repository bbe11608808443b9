# Spawn benchmark (issue 17): a script that starts a program 300 times, the path
# users feel. Run by spawn.sh under dash, and lash under several profiles.
#   spawn_loop.sh [PROGRAM ARG...]     (default /bin/true)
[ $# -gt 0 ] || set -- /bin/true
i=0
while [ $i -lt 300 ]; do
  "$@" || exit 1  # a refused or failed spawn is not a fast one: the run fails
  i=$((i+1))
done
echo $i
