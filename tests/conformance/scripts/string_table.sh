#!/usr/bin/env bash
# String manipulation helpers and a formatted table, dotfile-library style.
set -euo pipefail

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
slugify() { local s=${1,,}; s=${s//[^a-z0-9]/-}; while [[ $s == *--* ]]; do s=${s//--/-}; done; s=${s#-}; printf '%s' "${s%-}"; }
title() { local w out=(); for w in $1; do out+=("${w^}"); done; printf '%s' "${out[*]}"; }
repeat() { local s; printf -v s '%*s' "$2" ''; printf '%s' "${s// /$1}"; }
pad_center() { local s=$1 w=$2 l r; (( l = (w - ${#s}) / 2, r = w - ${#s} - l )); printf '%*s%s%*s' $l '' "$s" $r ''; }

items=(
  "  Hello World  |greeting|3"
  "the QUICK brown fox|animal|12"
  "  C++ & Rust: a comparison |lang|7"
  "path/to/some_file.tar.gz|file|150"
)

w1=28 w2=10 w3=6
line=$(repeat - $(( w1 + w2 + w3 + 8 )))
echo "+$line+"
printf '| %s | %s | %s |\n' "$(pad_center Name $w1)" "$(pad_center Kind $w2)" "$(pad_center Qty $w3)"
echo "+$line+"
total=0
for it in "${items[@]}"; do
  IFS='|' read -r name kind qty <<< "$it"
  name=$(trim "$name")
  (( total += qty ))
  printf '| %-*.*s | %-*s | %*d |\n' $w1 $w1 "$name" $w2 "${kind^^}" $w3 "$qty"
done
echo "+$line+"
printf '| %-*s | %*d |\n' $(( w1 + w2 + 3 )) "TOTAL" $w3 "$total"
echo "+$line+"

for it in "${items[@]}"; do
  name=$(trim "${it%%|*}")
  echo "slug: $(slugify "$name")  title: $(title "${name,,}")"
done

f="path/to/some_file.tar.gz"
echo "dir=${f%/*} base=${f##*/} ext=${f#*.} last=${f##*.} stem=${f%%.*}"
echo "upper=${f^^} first=${f^} swap=${f~~}"
echo "replace-first=${f/o/0} replace-all=${f//o/0} prefix=${f/#path/PATH} suffix=${f/%gz/xz}"
echo "len=${#f} sub=${f:5:2} tail=${f: -6} neg=${f:(-6):3}"
s="a,b,,c"
IFS=, read -ra parts <<< "$s"
echo "parts=${#parts[@]} joined=$(IFS=:; echo "${parts[*]}")"
printf '%s\n' "${parts[@]/#/item-}"
printf '%5.2f%%|%-5s|%05d|%x|%o|%e\n' 12.345 ab 42 255 8 1234.5
printf '%s\n' "${items[@]%%|*}" | sort -f
