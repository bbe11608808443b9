#!/bin/sh
# Building lash itself (meson setup + ninja) under the ci profile and under default,
# in the same run (issue 15: goal ci <= 1.15x default).
#   tests/bench/ci_build.sh LASH_BINARY SOURCE_DIR
# Each side builds a fresh copy of SOURCE_DIR (build directories and .git left out)
# at the same path, ccache disabled on both sides so neither reads the other's cache.
# It is two full builds: ./dev bench runs it only with BENCH_CI_BUILD=1.
set -eu
lash=${1:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}
src=${2:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}
jobs=${BENCH_JOBS:-2}
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
chmod 755 "$base"

one() {  # one PROFILE -> seconds on stdout
  rm -rf "$base/work"
  mkdir "$base/work"
  (cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | (cd "$base/work" && tar -xf -)
  start=$(date +%s.%N)
  (cd "$base/work" && PATH=/usr/local/bin:/usr/bin:/bin CCACHE_DISABLE=1 "$lash" -p "$1" -c \
    "meson setup -Dbuildtype=release b >/dev/null && ninja -C b -j$jobs >/dev/null") ||
    { echo "ci_build.sh: the build under $1 failed" >&2; return 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.1f\n", $2 - $1 }'
}

echo "bench: build lash under default, then under ci (two full builds)" >&2
d=$(one default)
c=$(one ci)
ratio=$(echo "$d $c" | awk '{ printf "%.3f", $2 / $1 }')
verdict=$(echo "$ratio" | awk '{ print ($1 <= 1.15) ? "ok" : "MISSED" }')
printf '%s\n' "measure                                  default   ci        ci/default  goal      verdict"
printf '%-40s %-9s %-9s %-11s %-9s %s\n' "build lash: meson setup + ninja" "${d} s" "${c} s" "${ratio}x" "<= 1.15x" "$verdict"
