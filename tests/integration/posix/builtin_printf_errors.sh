# printf numeric errors: message on stderr, status 1, output continues.
p() { printf "$@" 2>/dev/null; echo " -> status $?"; }
p '%d' abc
p '%d' 12abc
p '%d' ''
p '%d' ' 5'
p '%d' '5 '
p '%d %d' 1 x
p '%x' zz
p '%f' notnum
p '%d' 99999999999999999999
p '%c' ''
p '%s'
p '%q' x
p '%' 
p '%z' 1
p '\'
p 'abc\'
printf '%d\n' 7 x 8 2>/dev/null; echo "status after mixed: $?"
