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
lash=$(realpath "${1:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}")
src=${2:?usage: ci_build.sh LASH_BINARY SOURCE_DIR}
jobs=${BENCH_JOBS:-2}
targets=${BENCH_CI_TARGETS:-}
rounds=${BENCH_CI_ROUNDS:-1}
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
chmod 755 "$base"

one() {  # one PROFILE -> "WALL CPU" seconds on stdout (CPU: user + system of the whole build)
  rm -rf "$base/work"
  mkdir "$base/work"
  (cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) | (cd "$base/work" && tar -xf -)
  # GNU time reports the children lash waited for (ninja, and through it every
  # compiler run): their CPU time barely moves with the machine's load, the wall
  # time does, so on a shared machine the CPU ratio is the figure to trust.
  (cd "$base/work" && PATH=/usr/local/bin:/usr/bin:/bin CCACHE_DISABLE=1 \
    /usr/bin/time -f '%e %U %S' -o "$base/time" "$lash" -p "$1" -c \
    "meson setup -Dbuildtype=release b >/dev/null && ninja -C b -j$jobs $targets >/dev/null") ||
    { echo "ci_build.sh: the build under $1 failed" >&2; return 1; }
  awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' "$base/time"
}

what="meson setup + ninja"
[ -z "$targets" ] || what="meson setup + ninja $targets"
echo "bench: build lash under default and ci, $rounds round(s): $what" >&2
d=0 c=0 dc=0 cc=0 r=0
while [ "$r" -lt "$rounds" ]; do
  d1=$(one default); c1=$(one ci); c2=$(one ci); d2=$(one default)
  echo "bench:   round $((r + 1)) (wall, cpu): default $d1 s, ci $c1 s, ci $c2 s, default $d2 s" >&2
  d=$(echo "$d $d1 $d2" | awk '{ printf "%.1f", $1 + $2 + $4 }')
  dc=$(echo "$dc $d1 $d2" | awk '{ printf "%.1f", $1 + $3 + $5 }')
  c=$(echo "$c $c1 $c2" | awk '{ printf "%.1f", $1 + $2 + $4 }')
  cc=$(echo "$cc $c1 $c2" | awk '{ printf "%.1f", $1 + $3 + $5 }')
  r=$((r + 1))
done
n=$((2 * rounds))
label="build lash: $what"
[ -z "$targets" ] || label="build lash: setup + $(echo "$targets" | wc -w) targets"
printf '%s\n' "measure                                            default   ci        ci/default  goal      verdict"
row() {  # row WHAT DEFAULT_SUM CI_SUM
  dm=$(echo "$2 $n" | awk '{ printf "%.1f", $1 / $2 }')
  cm=$(echo "$3 $n" | awk '{ printf "%.1f", $1 / $2 }')
  ratio=$(echo "$dm $cm" | awk '{ printf "%.3f", $2 / $1 }')
  verdict=$(echo "$ratio" | awk '{ print ($1 <= 1.15) ? "ok" : "MISSED" }')
  printf '%-50s %-9s %-9s %-11s %-9s %s\n' "$label, $1" "${dm} s" "${cm} s" "${ratio}x" "<= 1.15x" "$verdict"
}
row "wall" "$d" "$c"
row "cpu" "$dc" "$cc"
