#!/bin/sh
# An $EDITOR for `profile edit` tests: writes a valid profile whose description shows
# whether EDIT_SECRET reached the editor.
printf '[profile]\ndescription = editor saw [%s]\n[inherit]\nfrom = default\n' "${EDIT_SECRET-unset}" > "$1"
