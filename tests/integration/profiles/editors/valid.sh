#!/bin/sh
# An $EDITOR for `profile edit` tests: replaces the file with a valid profile.
printf '[profile]\ndescription = edited by valid.sh\n[inherit]\nfrom = restricted\n' > "$1"
