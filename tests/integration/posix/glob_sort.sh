# Globbing results are sorted by the C locale; brackets and special names.
mkdir s && cd s || exit 1
touch -- B a C b _x -dash 1 10 2 Z z '~t' '#h' '%p' 'A b'
echo *
echo [[:lower:]]
echo [[:alpha:]]
echo [[:digit:]]*
echo [[:punct:]]*
echo [[:alnum:]]
echo [!0-9]*
echo [A-Z]
echo [a-z]
echo [-_]*
echo [_-]*
echo [\!#]*
echo '['*
echo [[:space:]]* *[[:space:]]*
touch 'x]' 'x[' 'x*' 'x?' 'x\y'
echo x*
echo x[]]
echo x[[]
echo x\*
echo x\?
echo 'x['*
echo x[\\]*
echo x?y
