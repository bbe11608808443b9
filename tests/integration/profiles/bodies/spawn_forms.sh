# Body shared by the spawn tests: every way a program can be started, each making its
# own file, so the caller can see which forms ran (`made m_...`) and which statuses the
# refusals gave. `./sourced.sh` must exist (the RUN line writes it).
touch m_direct; echo "direct $?"
command touch m_command; echo "command $?"
eval 'touch m_eval'; echo "eval $?"
. ./sourced.sh; echo "dot $?"
x=$(touch m_cmdsubst); echo "cmdsubst $?"
x=`touch m_backquote`; echo "backquote $?"
cat /dev/null | touch m_pipeline; echo "pipeline $?"
touch m_background & wait $!; echo "background $?"
f() { touch m_function; }; f; echo "function $?"
(exec touch m_exec); echo "exec $?"
/usr/bin/touch m_abspath; echo "abspath $?"
for f in m_*; do [ -e "$f" ] && echo "made $f"; done
echo end
