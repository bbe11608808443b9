#!/bin/sh
# An $EDITOR for `profile edit` tests: replaces the file with a profile that does not
# validate (a malformed boolean on line 2).
printf '[process]\nspawn_any = perhaps\n' > "$1"
