#!/bin/sh
# Writes a user profile for a test: mkprof.sh NAME LINE...
# Each LINE becomes one line of $LASH_HOME/profiles/NAME.profile (a RUN line calls this
# before starting lash, so the test body needs no file-writing rights of its own).
set -eu
name=$1
shift
mkdir -p "$LASH_HOME/profiles"
: > "$LASH_HOME/profiles/$name.profile"
for line in "$@"; do
  printf '%s\n' "$line" >> "$LASH_HOME/profiles/$name.profile"
done
