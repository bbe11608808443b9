# ${#x} ${x%p} ${x%%p} ${x#p} ${x##p} with globs, quoting, special params.
path=/usr/local/lib/libfoo.so.1.2
echo "len=${#path}"
echo "%.*   = ${path%.*}"
echo "%%.*  = ${path%%.*}"
echo "#*/   = ${path#*/}"
echo "##*/  = ${path##*/}"
echo "%/*   = ${path%/*}"
echo "##*.  = ${path##*.}"
echo "#/usr = ${path#/usr}"
echo "%nomatch = ${path%xyz}"
echo "#nomatch = ${path#xyz}"
x=aaabbb
echo "${x#a} ${x##a} ${x#a*} ${x##a*} ${x%b} ${x%%b} ${x%b*} ${x%%b*} ${x%a*} ${x%%a*}"
echo "${x#?} ${x#??} ${x%???} ${x#[ab]} ${x##[ab]*} ${x%[!a]}"
echo "${x#*} ${x##*} ${x%*} ${x%%*}"
e=; echo "empty: [${e#x}] [${e%%*}] len=${#e}"
unset u; echo "unset: [${u#x}] [${u%y}] len=${#u}"
star='*'; s='a*b*c'
echo "quoted pattern: ${s#"$star"} ${s#$star} ${s%"*c"} ${s%*c}"
echo "escaped: ${s#a\*} ${s%\*c}"
dot=.; f=file.tar.gz
echo "var pattern: ${f%$dot*} ${f%%$dot*} ${f#*$dot}"
echo "in quotes: ${f%.gz}" "${f%".gz"}" "${f%'.gz'}"
set -- hello world
echo "positional: ${1#h} ${2%d} ${#1} ${#2}"
echo "count: ${#}"
set -- a b c d e f g h i j k
echo "count11: ${#} ${#10}"
v="a b  c"; echo "len with spaces: ${#v}"
v='é'; echo "len multibyte in C locale: ${#v}" 
n=12345; echo "${n%??} ${n#???}"
url=http://example.com:8080/path
host=${url#*://}; host=${host%%/*}; echo "host=${host%:*} port=${host#*:}"
w="  lead"; echo "[${w#" "}] [${w##*" "}]"
b='a\b'; echo "${b#a\\}" "${b%\\b}"
brack='x[y]z'; echo "${brack#x[}" "${brack%]z}" "${brack#*[[]}"
lst="one:two:three"; while [ -n "$lst" ]; do item=${lst%%:*}; echo "item=$item"; case $lst in *:*) lst=${lst#*:};; *) lst=;; esac; done
echo "${#path} ${#PWD_NOT_SET}"
