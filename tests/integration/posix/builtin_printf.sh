# printf: conversions, format re-use, %b, escapes, widths.
printf 'plain\n'
printf '%s\n' a b c
printf '%s-%s\n' 1 2 3 4 5
printf '%d %i\n' 42 -7
printf '%5d|%-5d|%05d\n' 42 42 42
printf '%x %X %o\n' 255 255 8
printf '%#x %#o\n' 255 8
printf '%u\n' 3000000000
printf '%c%c\n' hello world
printf '%5s|%-5s|%.2s\n' ab ab abcdef
printf '%%\n'
printf '%s\n'
printf '%d\n'
printf '[%s]\n' ''
printf 'no newline'; echo '|'
printf '%b\n' 'a\tb' 'c\nd' '\0101' 'x\cy'
printf '%s\n' 'a\tb'
printf 'esc: \t|\\|\a|\101|\0101\n' | od -c | head -2
printf '%d\n' 0x1f 010 "'A" '"B'
printf '%d %d\n' +5 -0
printf '%s %s %s\n' a b
printf '%3$s\n' x y z 2>/dev/null; echo "positional status: $?"
printf -- '--%s\n' dash
printf '%s\n' -- x
printf '%.3d|%8.3f|%-8.2f|%e\n' 5 3.14159 2.5 12345.678
printf '%g %g %g\n' 0.0001 100000 1e10
printf '%*d|%-*d\n' 5 1 4 2
printf '%.*s\n' 3 abcdef
printf 'A%sB%sC\n' 1
printf '%s\n' "multi
line"
printf "%s\n" "$(printf 'nested %s' x)"
printf '\x41\n'
printf '%5.1s|\n' abc
printf '%-3c|\n' z
printf '%i\n' 2147483648
printf '%d\n' -9223372036854775808
printf '%ld\n' 5 2>/dev/null; echo "ld status: $?"
v=$(printf '%s' "no trailing"); echo "[$v]"
printf '%s' a b c; echo
printf 'x\0y\n' | od -c | head -1
