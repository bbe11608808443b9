#!/bin/sh
# Building lash itself (meson setup + ninja) under the ci profile and under default,
# in the same run (issue 15: goal ci <= 1.15x default).
#   tests/bench/ci_build.sh LASH_BINARY SOURCE_DIR
# Each side builds a fresh copy of SOURCE_DIR (build directories and .git left out)
# at the same path, ccache disabled on both sides so neither reads the other's cache
# (ci forces CCACHE_DISABLE=1 anyway).
#   BENCH_JOBS      ninja -j (default 2)
#   BENCH_CI_TARGETS  ninja targets to build (default: everything); a few libraries
#                   give the same mix of compiler runs in minutes on a loaded machine
#   BENCH_CI_ROUNDS rounds, each default then ci then ci then default (default 1):
#                   alternating evens out a load that drifts during the run
# ./dev bench runs it (BENCH_CI_BUILD=0 leaves it out: it is two full builds).
set -eu
lash=${1:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}
src=${2:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}
jobs=${BENCH_JOBS:-2}
targets=${BENCH_CI_TARGETS:-}
rounds=${BENCH_CI_ROUNDS:-1}
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
chmod 755 "$base"

one() {  # one PROFILE -> seconds on stdout
  rm -rf "$base/work"
  mkdir "$base/work"
  (cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | (cd "$base/work" && tar -xf -)
  start=$(date +%s.%N)
  (cd "$base/work" && PATH=/usr/local/bin:/usr/bin:/bin CCACHE_DISABLE=1 "$lash" -p "$1" -c \
    "meson setup -Dbuildtype=release b >/dev/null && ninja -C b -j$jobs $targets >/dev/null") ||
    { echo "ci_build.sh: the build under $1 failed" >&2; return 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.1f\n", $2 - $1 }'
}

what="meson setup + ninja"
[ -z "$targets" ] || what="meson setup + ninja $targets"
echo "bench: build lash under default and ci, $rounds round(s): $what" >&2
d=0 c=0 r=0
while [ "$r" -lt "$rounds" ]; do
  d1=$(one default); c1=$(one ci); c2=$(one ci); d2=$(one default)
  echo "bench:   round $((r + 1)): default $d1 s, ci $c1 s, ci $c2 s, default $d2 s" >&2
  d=$(echo "$d $d1 $d2" | awk '{ printf "%.1f", $1 + $2 + $3 }')
  c=$(echo "$c $c1 $c2" | awk '{ printf "%.1f", $1 + $2 + $3 }')
  r=$((r + 1))
done
n=$((2 * rounds))
d=$(echo "$d $n" | awk '{ printf "%.1f", $1 / $2 }')
c=$(echo "$c $n" | awk '{ printf "%.1f", $1 / $2 }')
ratio=$(echo "$d $c" | awk '{ printf "%.3f", $2 / $1 }')
verdict=$(echo "$ratio" | awk '{ print ($1 <= 1.15) ? "ok" : "MISSED" }')
label="build lash: $what"
[ -z "$targets" ] || label="build lash: setup + $(echo "$targets" | wc -w) targets"
printf '%s\n' "measure                                  default   ci        ci/default  goal      verdict"
printf '%-40s %-9s %-9s %-11s %-9s %s\n' "$label" "${d} s" "${c} s" "${ratio}x" "<= 1.15x" "$verdict"
