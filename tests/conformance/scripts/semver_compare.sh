#!/usr/bin/env bash
# Semantic version comparison and sorting, the way release tooling does it.
set -euo pipefail

# semver_parse VERSION -> sets SV_MAJOR SV_MINOR SV_PATCH SV_PRE
semver_parse() {
  local v=${1#v}
  local re='^([0-9]+)\.([0-9]+)\.([0-9]+)(-([0-9A-Za-z.-]+))?(\+[0-9A-Za-z.-]+)?$'
  if [[ ! $v =~ $re ]]; then
    echo "invalid version: $1" >&2
    return 1
  fi
  SV_MAJOR=${BASH_REMATCH[1]}
  SV_MINOR=${BASH_REMATCH[2]}
  SV_PATCH=${BASH_REMATCH[3]}
  SV_PRE=${BASH_REMATCH[5]:-}
}

# compare pre-release identifiers per semver 2.0 section 11
pre_cmp() {
  local a=$1 b=$2
  [[ -z $a && -z $b ]] && { echo 0; return; }
  [[ -z $a ]] && { echo 1; return; }
  [[ -z $b ]] && { echo -1; return; }
  local IFS=.
  local -a pa=($a) pb=($b)
  local i n=${#pa[@]}
  (( ${#pb[@]} > n )) && n=${#pb[@]}
  for (( i = 0; i < n; i++ )); do
    local x=${pa[i]:-} y=${pb[i]:-}
    [[ -z $x ]] && { echo -1; return; }
    [[ -z $y ]] && { echo 1; return; }
    if [[ $x =~ ^[0-9]+$ && $y =~ ^[0-9]+$ ]]; then
      (( 10#$x < 10#$y )) && { echo -1; return; }
      (( 10#$x > 10#$y )) && { echo 1; return; }
    elif [[ $x =~ ^[0-9]+$ ]]; then
      echo -1; return
    elif [[ $y =~ ^[0-9]+$ ]]; then
      echo 1; return
    else
      [[ $x < $y ]] && { echo -1; return; }
      [[ $x > $y ]] && { echo 1; return; }
    fi
  done
  echo 0
}

semver_cmp() {
  local a1 a2 a3 ap
  semver_parse "$1" || return 2
  a1=$SV_MAJOR a2=$SV_MINOR a3=$SV_PATCH ap=$SV_PRE
  semver_parse "$2" || return 2
  local k
  for k in 1 2 3; do
    local l=a$k r
    case $k in 1) r=$SV_MAJOR ;; 2) r=$SV_MINOR ;; 3) r=$SV_PATCH ;; esac
    if (( ${!l} < r )); then echo -1; return 0; fi
    if (( ${!l} > r )); then echo 1; return 0; fi
  done
  pre_cmp "$ap" "$SV_PRE"
}

pairs=(
  "1.0.0 2.0.0" "2.1.0 2.0.9" "1.0.0-alpha 1.0.0" "1.0.0-alpha.1 1.0.0-alpha.beta"
  "1.0.0-beta.11 1.0.0-beta.2" "v1.2.3 1.2.3+build.7" "1.0.0-rc.1 1.0.0-rc.1"
  "0.9.12 0.10.0"
)
for p in "${pairs[@]}"; do
  read -r left right <<< "$p"
  r=$(semver_cmp "$left" "$right")
  case $r in
    -1) op='<' ;; 0) op='=' ;; 1) op='>' ;;
  esac
  printf '%-16s %s %s\n' "$left" "$op" "$right"
done

# insertion sort of a version list using the comparator
versions=(1.10.0 1.2.0 1.2.0-rc.2 0.1.0 1.2.0-rc.10 1.9.9 2.0.0-alpha)
sorted=()
for v in "${versions[@]}"; do
  placed=0 out=()
  for s in "${sorted[@]+"${sorted[@]}"}"; do
    if (( ! placed )) && [[ $(semver_cmp "$v" "$s") == -1 ]]; then
      out+=("$v"); placed=1
    fi
    out+=("$s")
  done
  (( placed )) || out+=("$v")
  sorted=("${out[@]}")
done
echo "sorted: ${sorted[*]}"
echo "latest: ${sorted[-1]}"

if semver_cmp "1.x" "1.0.0" 2>/dev/null; then
  echo "unexpected"
else
  echo "bad version rejected with status $?"
fi
