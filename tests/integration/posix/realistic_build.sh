# An ordinary script: a tiny make-like runner with set -e, traps, functions and files.
set -e
log() { printf '[%s] %s\n' "$1" "$2"; }
cleanup() { log info "cleanup, status $?"; rm -rf stage; }
trap cleanup EXIT
mkdir -p src stage out
for m in alpha beta gamma; do
  printf 'module %s\nversion 1\n' "$m" > "src/$m.txt"
done
build() {
  src=$1 dst=stage/$(basename "$1" .txt).o
  if [ -f "$dst" ] && [ "$dst" -nt "$src" ]; then log skip "$dst"; return 0; fi
  sed 's/^/compiled: /' "$src" > "$dst"
  log build "$dst"
}
for f in src/*.txt; do build "$f"; done
count=0
for o in stage/*.o; do count=$((count + $(wc -l < "$o"))); done
log info "lines compiled: $count"
cat stage/*.o > out/all
if ! grep -q 'module beta' out/all; then log error "beta missing"; exit 1; fi
log info "linked $(wc -l < out/all | tr -d ' ') lines"
status=0
$TESTSH -c 'set -e; false; echo never' || status=$?
log info "subshell failure captured: $status"
result=$(build src/alpha.txt)
log info "rebuild says: $result"
