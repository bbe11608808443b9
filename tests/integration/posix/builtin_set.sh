# set: no-argument listing format, -o listing of a few options, positional set.
zz_plain=value
zz_space='a b'
zz_quote="it's"
zz_empty=
zz_newline='line1
line2'
zz_special='$x `y` "z" \w'
set | grep -E '^zz_' 
set -o | grep -E '^(errexit|noglob|nounset|noclobber|allexport|xtrace|verbose)[[:space:]]' | sed 's/[[:space:]][[:space:]]*/ /' | sort
set -e; set -o | grep -E '^errexit' | sed 's/[[:space:]][[:space:]]*/ /'; set +e
set +o | grep -E 'errexit|noglob|nounset' | sort
case $- in *e*) echo "e set";; *) echo "e not set";; esac
set -o errexit; case $- in *e*) echo "e set via -o";; esac; set +o errexit
set -- a b c; echo "$# $*"
set -e -u -- x y; case $- in *e*) case $- in *u*) echo "e and u in \$-, $# args";; esac;; esac; set +e +u
set -fu; case $- in *f*u*|*u*f*) echo "combined flags";; esac; set +fu
set -o nounset -o noglob; case $- in *f*) echo "two -o";; esac; set +o nounset +o noglob
(set -o nosuchoption) 2>/dev/null; echo "bad option: $?"
(set -Q) 2>/dev/null; echo "bad flag: $?"
