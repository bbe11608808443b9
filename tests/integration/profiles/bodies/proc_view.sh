# The shell's view of another process's /proc entries: $1 is that process (outside the
# session), with its working directory in .../victim/secretdir and its fd 7 on
# .../victim/secret-file, and an executable `tool` there. link-cwd and link-fd are symlinks to its /proc/PID/cwd and
# /proc/PID/fd/7 in the working directory.
V=$1 mode=$2
start=$(pwd -P)
cd /proc/$V/cwd && pwd -P; echo "cd-cwd $?"
cd -P /proc/$V/cwd && pwd -P; echo "cd-P $?"
cd /proc/$V/root && pwd -P; echo "cd-root $?"
cd "$start"
cd link-cwd && pwd -P; echo "cd-link $?"
cd "$start"
cd /proc/$V && echo "cd-pid-dir"; echo "cd-dir $?"
cd "$start"
read x < /proc/$V/fd/7; echo "read $?"
read x < link-fd; echo "read-link $?"
[ -e /proc/$V/cwd ]; echo "test-e $?"
[ -d /proc/$V/cwd/. ]; echo "test-d $?"
set -- /proc/$V/c*; [ -e "$1" ]; echo "glob $?"
{ /proc/$V/cwd/tool; } 2>/dev/null; echo "run-path $?"
others() { n=0; for f; do case $f in "/proc/$$"|"/proc/$$/"*) ;; *) n=$((n+1)) ;; esac; done; [ $n -gt 0 ]; }
others /proc/[0-9]*/cwd; echo "glob-others $?"
others /proc/[0-9]*; echo "list-others $?"
cd /proc/self/cwd && echo "own-self $?"
cd /proc/$$/cwd && echo "own-pid $?"
cd "$start"
echo x > /proc/$V/fd/7; echo "write $?"
# A job of the session is the shell's own: its /proc entries stay visible.
if [ "$mode" = job ]; then
  sleep 5 & j=$!
  cd /proc/$j/cwd && echo "own-job $?"
  { PATH=/proc/$V/cwd tool; } 2>/dev/null; echo "run-search $?"
  kill $j
fi
