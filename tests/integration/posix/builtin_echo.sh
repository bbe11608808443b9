# echo, with dash's behaviour: escapes are always interpreted, -n is the only option.
echo plain
echo -n "no newline"; echo "|"
echo -e "dash prints -e"
echo -n
echo "tab:\tend"
echo "newline:\nsecond"
echo "backslash:\\\\"
echo "octal:\0101\0102"
echo "stop here\c and not this"
echo "alert-free: \a" | od -c | head -1
echo "bs:\b" | od -c | head -1
echo "ff:\f vt:\v cr:\r" | od -c | head -1
echo 'single \n quoted'
echo unquoted\\nescape
echo "-n" "as second arg" -n
echo --
echo -- -n
echo "-"
echo ""
echo "" ""
echo a "" b
echo "  spaced  "
echo multiple   args    collapse
echo "\0"
echo "\0012x" | od -c | head -1
echo "\e?" | od -c | head -1
echo "\x41"
echo "unknown \q \z"
echo '\\'
echo -nn x; echo
echo -n -n y; echo
