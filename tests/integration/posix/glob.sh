# Pathname expansion in a fresh directory.
mkdir g && cd g || exit 1
touch a b c ab abc a1 a2 a10 B .hidden .h2 'sp ace' x.txt y.txt z.md
mkdir dir1 dir2 .hdir
touch dir1/f1 dir1/f2 dir2/f3
echo *
echo a*
echo ?
echo ??
echo a?
echo *.txt
echo [ab]
echo [a-c]
echo [!a]
echo [^a]
echo [[:upper:]]
echo a[[:digit:]]
echo a[[:digit:]][[:digit:]]
echo .*
echo .h*
echo *dir*
echo */
echo */*
echo dir?/f*
echo d*/f[13]
echo nomatch*
echo "quoted*"
echo 'q?'
echo \*
echo no[match
echo [
echo '['*
echo *[
echo a\*
echo "a"*
echo a"*"
x='a*'; echo $x
echo "$x"
x='[ab]'; echo $x
set -f; echo *; echo $x; set +f
echo *; echo
for f in *.txt; do echo "loop: $f"; done
for f in *.none; do echo "loop nomatch: $f"; done
set -- *.md; echo "args: $# $1"
n=$(echo * | wc -w); echo "word count $n"
ls -d sp*
echo sp*
for f in sp*; do echo "[$f]"; done
echo ./a*
echo ../g/a?
echo dir1/../a
echo /dev/nul?
echo //dev//nul?
cd dir1 && echo * && cd ..
echo *1*
case $(echo *.txt) in "x.txt y.txt") echo "sorted";; esac
mkdir -p deep/er/est && touch deep/er/est/file
echo deep/*/*/*
echo */er
chmod 000 dir2; echo dir2/*; chmod 755 dir2
v=*; echo "assignment not globbed: $v"
echo "${v}"
echo $v
