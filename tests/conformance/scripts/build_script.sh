#!/usr/bin/env bash
# A make-like build driver: arrays of sources, associative arrays of flags,
# mtime-free dependency decisions via a manifest, functions returning via nameref-free globals.
set -eo pipefail
shopt -s nullglob

src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
mkdir -p "$src/lib" "$src/app" "$src/test"
for f in lib/util.c lib/str.c app/main.c app/cli.c test/t_util.c; do
  printf '/* %s */\nint %s(void);\n' "$f" "$(basename "${f%.c}")" > "$src/$f"
done
printf '#pragma once\n' > "$src/lib/util.h"

declare -A cflags=([lib]="-O2 -fPIC" [app]="-O2" [test]="-O0 -g")
declare -A defines=([lib]="" [app]="VERSION=\"1.2\" NDEBUG" [test]="TESTING")
targets=(lib app test)
objs=()
declare -a log=()

compile() {
  local target=$1 file=$2 obj
  obj=build/${target}/$(basename "${file%.c}").o
  local -a cmd=(cc ${cflags[$target]} -c "$file" -o "$obj")
  local d
  for d in ${defines[$target]}; do cmd+=("-D$d"); done
  log+=("${cmd[*]}")
  objs+=("$obj")
}

cd "$src"
for t in "${targets[@]}"; do
  files=("$t"/*.c)
  headers=("$t"/*.h)
  echo "target $t: ${#files[@]} source(s), ${#headers[@]} header(s)"
  for f in "${files[@]}"; do compile "$t" "$f"; done
done

printf '%s\n' "${log[@]}"
echo "objects: ${#objs[@]}"
echo "lib objects: $(printf '%s\n' "${objs[@]}" | grep -c '^build/lib/')"

# link lines grouped by target using array slicing
i=0
for t in "${targets[@]}"; do
  n=$(printf '%s\n' "${objs[@]}" | grep -c "^build/$t/")
  echo "link $t: ${objs[*]:i:n}"
  (( i += n ))
done

# incremental build via a manifest of content hashes (cksum, deterministic)
declare -A manifest=()
while read -r sum size name; do manifest[$name]=$sum; done < <(cksum lib/*.c app/*.c | sort -k3)
printf '\nint extra;\n' >> app/cli.c
changed=()
while read -r sum size name; do
  [[ ${manifest[$name]} != "$sum" ]] && changed+=("$name")
done < <(cksum lib/*.c app/*.c | sort -k3)
echo "changed: ${changed[*]:-none}"

empty=(nothing/*.c)
echo "nullglob empty: ${#empty[@]}"
shopt -u nullglob
literal=(nothing/*.c)
echo "without nullglob: ${literal[0]}"
declare -p cflags | grep -o '\[app\]="[^"]*"'
unset 'cflags[test]'
echo "flags left: $(printf '%s\n' "${!cflags[@]}" | sort | tr '\n' ' ')"
