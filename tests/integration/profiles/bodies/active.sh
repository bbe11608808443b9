# Prints the session's active profile (the `*` line of `profile list`), using builtins
# only, so it works under any profile.
profile list | while read -r mark name rest; do
  [ "$mark" = "*" ] && echo "active $name"
done
: 
