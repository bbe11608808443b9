# . NAME searches PATH for a file: a directory named NAME earlier on PATH is
# skipped, as is a directory where NAME is missing.
mkdir -p first/lib.sh second third
echo 'echo "sourced from third"' > third/lib.sh
PATH="$PWD/first:$PWD/second:$PWD/third"
. lib.sh
echo "status $?"
