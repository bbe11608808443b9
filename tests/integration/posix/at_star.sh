# "$@" and "$*" in every quoting context.
show() { printf '%s:' "$#"; for a; do printf '<%s>' "$a"; done; echo; }
set -- "a b" "" c
show $@
show "$@"
show $*
show "$*"
show "x$@y"
show "x$*y"
show "$@$@"
show "$@" "$@"
show x"$@"y
show "${@}"
show "${*}"
show ${@}
set --
show "$@"
show "$*"
show $@
show "x$@"
show "$@" ""
show "${@-dflt}"
set -- ""
show "$@"
show $@
show "$*"
show $*
set -- "" ""
show "$@"
show "$*"
set -- 'a*' '?'
touch abc a1 b
show $@
show "$@"
show $*
set -f; show $@; set +f
set -- one two
x="$@"; show "$x"
x=$@; show "$x"
x="$*"; show "$x"
x=$*; show "$x"
show "$@" "$#"
show "${1}${2}" "$1 $2"
f() { show "$@"; }; set -- 1 "2 3"; f "$@"; f $@; f "$*"
show "-$@-"
case "$@" in "1 2 3") echo "case word \$@ joins";; *) echo "case word other";; esac
case "$*" in "1 2 3") echo "case word \$* joins";; esac
