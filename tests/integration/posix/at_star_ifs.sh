# $@ and $* joined and split under different IFS values.
show() { printf '%s:' "$#"; for a; do printf '<%s>' "$a"; done; echo; }
set -- "a b" "c:d" "" e
for ifs in ' ' ':' '' '-:' ' :'; do
  IFS=$ifs
  printf 'IFS=[%s] ' "$ifs"; show "$*"
  printf 'IFS=[%s] ' "$ifs"; show $*
  printf 'IFS=[%s] ' "$ifs"; show $@
  printf 'IFS=[%s] ' "$ifs"; show "$@"
  x="$*"; printf 'IFS=[%s] assign ' "$ifs"; show "$x"
done
unset IFS
echo "unset IFS:"; show "$*"; show $*
IFS=' '
set -- "x y"
IFS=; show $*; show $@; show "$*"
IFS=' '
set -- a b c
IFS=,; echo "$*"; echo $*; echo "${*}"; IFS=' '
IFS=,; v="$*"; IFS=' '; echo "saved: $v"
IFS=':;'; set -- p q; echo "first char used: $*"; IFS=' '
