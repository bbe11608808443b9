#!/bin/sh
# Runs "$@" and drops one stderr line: the sandbox's note that the `protect` paths
# (.git/hooks, .git/config) do not exist in a writable grant. Profiles with writable
# grants (ci) print it on their first fork in any directory without .git, which is not
# what these tests are about. Everything else on stderr, and the status, pass through.
err="${TMPDIR:-/tmp}/.noprotectwarn.$$"
"$@" 2> "$err"
st=$?
grep -v '^lash: warning: filesystem.protect: not kept read-only because they do not exist yet' "$err" >&2
rm -f "$err"
exit "$st"
