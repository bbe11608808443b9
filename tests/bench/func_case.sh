# Interpreter benchmark: 100,000 calls of a function doing case and ${v%pattern}.
classify() {
  v=${1%.*}
  case $1 in
    *.c|*.h) kind=c ;;
    *.sh) kind=sh ;;
    *) kind=other ;;
  esac
}
n=0
while [ $n -lt 100000 ]; do
  classify "file$n.sh"
  n=$((n+1))
done
echo "$v $kind"
