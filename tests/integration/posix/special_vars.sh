# Shell-set variables: OPTIND, IFS default, PS2/PS4 defaults, PWD.
# (LINENO: dash leaves it empty in scripts; see shell/lineno.lash.)
echo "OPTIND=$OPTIND"
printf '%s' "$IFS" | od -c | head -1
echo "PS2=[$PS2] PS4=[$PS4]"
[ "$PWD" = "$(pwd)" ] && echo "PWD matches pwd"
cd / && echo "PWD after cd: $PWD" && cd - >/dev/null
[ "$OLDPWD" = / ] && echo "OLDPWD set by cd"
