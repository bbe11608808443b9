#!/usr/bin/env bash
# Runs every libFuzzer target (executables named *_fuzz) found in BUILD_DIR for
# SECONDS each. Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS]
# Corpora grow in tests/fuzz/corpus-NAME/ (not committed), seeded from
# tests/fuzz/seeds/NAME/; crash inputs go to BUILD_DIR/fuzz-artifacts/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
mkdir -p "$build/fuzz-artifacts"

mapfile -t targets < <(find "$build/tests/fuzz" -maxdepth 1 -type f -name '*_fuzz' -perm -u+x | sort)
if [ "${#targets[@]}" = 0 ]; then
  echo "run.sh: no fuzz targets in $build/tests/fuzz (configure with -Dfuzz=true)" >&2
  exit 1
fi

failed=()
for exe in "${targets[@]}"; do
  name=$(basename "$exe")
  corpus="$here/corpus-$name"
  mkdir -p "$corpus"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$name-")
  [ -f "$here/$name.dict" ] && args+=(-dict="$here/$name.dict")
  dirs=("$corpus")
  [ -d "$here/seeds/$name" ] && dirs+=("$here/seeds/$name")
  echo "== $name: ${seconds}s ==" >&2
  log="$build/fuzz-artifacts/$name.log"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "$exe" "${args[@]}" "${dirs[@]}" >"$log" 2>&1; then
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' "$log" >&2 || true
  else
    echo "$name: FAILED (see $log)" >&2
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 >&2 || true
    failed+=("$name")
  fi
done

if [ "${#failed[@]}" != 0 ]; then
  echo "fuzz failures: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} target(s) ran ${seconds}s each without failures" >&2
