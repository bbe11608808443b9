#!/bin/sh
# Runs a test binary again as an unprivileged user (testing.md: sandbox tests run as
# root and as an unprivileged user). Skipped (77) when not root or without setpriv.
[ "$(id -u)" = 0 ] || { echo "SKIP: not root, the main run is already unprivileged"; exit 77; }
command -v setpriv >/dev/null 2>&1 || { echo "SKIP: setpriv (util-linux) missing"; exit 77; }
cd /tmp || exit 99
exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
