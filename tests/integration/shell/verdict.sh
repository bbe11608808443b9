#!/bin/sh
# Helper for bad-input tests (not a test itself):
#   sh verdict.sh EXPECTED CMD [ARGS...]
# Runs CMD and prints one word:
#   correct      status 0 and stdout equal to EXPECTED (printf %b escapes allowed)
#   clear-error  status 1..125 and a stderr line that starts with "lash: "
#   BAD ...      anything else (a crash, a signal, a silent failure), with details
# CMD's stderr is copied to our stderr, so run.py still sees crash and
# sanitizer reports.
expected=$1; shift
out=$(mktemp) err=$(mktemp)
"$@" > "$out" 2> "$err"
s=$?
cat "$err" >&2
want=$(mktemp); printf '%b' "$expected" > "$want"
if [ $s = 0 ] && cmp -s "$out" "$want"; then
  echo correct
elif [ $s -ge 1 ] && [ $s -le 125 ] && grep -q '^lash: ' "$err"; then
  echo clear-error
else
  echo "BAD: status $s, stdout $(wc -c < "$out") bytes: $(head -c 200 "$out")"
fi
rm -f "$out" "$err" "$want"
