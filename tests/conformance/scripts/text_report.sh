#!/usr/bin/env bash
# Word counting with associative arrays and here-strings.
declare -A count
text="the quick brown fox jumps over the lazy dog the end"
read -r -a words <<< "$text"
for w in "${words[@]}"; do count[$w]=$(( ${count[$w]:-0} + 1 )); done
for w in $(printf '%s\n' "${!count[@]}" | sort); do echo "$w ${count[$w]}"; done
echo "distinct: ${#count[@]} total: ${#words[@]}"
line=$(printf '%.0s-' {1..20}); echo "$line"
