#!/usr/bin/env bash
# A build matrix expanded with brace expansion and C-style loops.
set -o pipefail
targets=({linux,darwin}-{amd64,arm64})
echo "${#targets[@]} targets: ${targets[*]}"
for (( i = 0; i < ${#targets[@]}; i += 2 )); do
  t=${targets[i]}; os=${t%-*}; arch=${t#*-}
  printf '%s/%s %s\n' "$os" "$arch" "$([[ $arch == arm64 ]] && echo cross || echo native)"
done
n=0; while read -r line; do (( n += ${#line} )); done <<< $'one\ntwo\nthree'
echo "chars=$n"
echo $(( 2**8 - 1 )) $(( 16#ff )) $(( 8#17 ))
