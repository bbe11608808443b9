#!/usr/bin/env bash
# Builds release notes from conventional commit subjects: groups by type with
# case ;;& fall-through tests, quotes shell-safe values with %q, and reads a
# here-document of commits with read -d and read -a.
set -eu

commits=$(cat <<'LOG'
feat(api): add pagination to list endpoints
fix(cli): handle empty config file
docs: explain the cache directory
feat!: drop python 3.7 support
chore(deps): bump requests to 2.31
fix: race in the upload retry loop
perf(db): batch inserts
LOG
)

declare -a features=() fixes=() other=() breaking=()

while IFS= read -r subject; do
  [[ -z $subject ]] && continue
  type=${subject%%:*}
  scope=""
  if [[ $type =~ ^([a-z]+)\(([a-z]+)\)(!?)$ ]]; then
    scope=${BASH_REMATCH[2]}
    type=${BASH_REMATCH[1]}${BASH_REMATCH[3]}
  fi
  text=${subject#*: }
  case $type in
    *!) breaking+=("$text") ;;&
    feat*) features+=("${scope:+$scope: }$text") ;;
    fix*) fixes+=("${scope:+$scope: }$text") ;;
    *) other+=("$text") ;;
  esac
done <<< "$commits"

section() {
  local title=$1; shift
  (( $# == 0 )) && return 0
  echo "### $title"
  local item
  for item in "$@"; do echo "- ${item^}"; done
  echo
}

version=1.4.0
IFS=. read -r -a parts <<< "$version"
if (( ${#breaking[@]} )); then
  next="$(( parts[0] + 1 )).0.0"
else
  next="${parts[0]}.$(( parts[1] + 1 )).0"
fi
echo "## $next"
echo
section "Breaking changes" "${breaking[@]}"
section "Features" "${features[@]}"
section "Fixes" "${fixes[@]}"
section "Other" "${other[@]}"

printf 'tag command: git tag %q -m %q\n' "v$next" "Release $next"
read -r -d '' footer <<'EOF2' || true
Thanks to everyone who contributed.
EOF2
echo "$footer"
echo "counts: ${#features[@]} ${#fixes[@]} ${#other[@]} ${#breaking[@]}"
