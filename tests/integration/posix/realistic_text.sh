# An ordinary script: string manipulation helpers without external tools.
trim() { s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s\n' "$s"; }
basename_() { p=${1%"${1##*[!/]}"}; p=${p##*/}; printf '%s\n' "${p:-/}"; }
dirname_() {
  p=$1
  case $p in */*) ;; *) echo .; return ;; esac
  p=${p%/*}; printf '%s\n' "${p:-/}"
}
repeat() { r=; i=0; while [ $i -lt $2 ]; do r=$r$1; i=$((i+1)); done; printf '%s\n' "$r"; }
upper() { printf '%s\n' "$1" | tr a-z A-Z; }
contains() { case $1 in *"$2"*) return 0;; esac; return 1; }
split_count() { old=$IFS; IFS=$2; set -- $1; IFS=$old; echo $#; }
reverse_words() { r=; for w in $1; do r="$w${r:+ $r}"; done; echo "$r"; }
join_by() { sep=$1; shift; out=; for a; do out=${out:+$out$sep}$a; done; echo "$out"; }
trim "   padded text   "
basename_ /usr/local/bin/; basename_ file.txt; basename_ /
dirname_ /usr/local/bin; dirname_ file; dirname_ /top
repeat ab 5
upper "mixed Case"
contains "haystack" "st" && echo "contains yes"
contains "haystack" "xyz" || echo "contains no"
contains 'a*b' '*' && echo "literal star found"
split_count "a:b::c" :
reverse_words "one two three"
join_by , x y z
join_by " - " "first" "second part"
n=0; s="a,b;c d"; while [ -n "$s" ]; do c=${s%"${s#?}"}; s=${s#?}; case $c in [[:alpha:]]) n=$((n+1));; esac; done; echo "letters: $n"
