# An ordinary script: count words in a text with while-read, case, functions, sort.
cat > text.txt <<'EOF2'
The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs!
A fox, a dog, and THE end.
EOF2
normalize() {
  printf '%s\n' "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z\n' ' '
}
total=0
while IFS= read -r line; do
  for w in $(normalize "$line"); do
    total=$((total + 1))
    case $w in
      the|a|and) kind=stop ;;
      fox|dog) kind=animal ;;
      *) kind=word ;;
    esac
    echo "$kind $w"
  done
done < text.txt > words.txt
echo "total words: $total"
echo "by kind:"
cut -d' ' -f1 words.txt | sort | uniq -c | sed 's/^ *//'
echo "top animals:"
grep '^animal' words.txt | cut -d' ' -f2 | sort | uniq -c | sort -rn | sed 's/^ *//'
longest=
while read -r kind w; do
  [ ${#w} -gt ${#longest} ] && longest=$w
done < words.txt
echo "longest: $longest (${#longest})"
