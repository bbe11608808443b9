#!/bin/sh
# The lint of forbidden calls, tested: a scratch copy of src/ and builtins/ is clean
# (the twin), and each planted forbidden call in it must be found, one at a time.
#   forbidden_calls_selftest.sh REPO_ROOT
root=${1:?usage: forbidden_calls_selftest.sh REPO_ROOT}
lint="$root/tests/lint/forbidden_calls.sh"
scratch=$(mktemp -d) || exit 99
trap 'rm -rf "$scratch"' EXIT
fails=0

fresh() {
  rm -rf "$scratch/tree" && mkdir "$scratch/tree" &&
    cp -R "$root/src" "$root/builtins" "$scratch/tree/" || exit 99
}

# expect_found LABEL FILE LINE-OF-CODE WORD-IN-REPORT
expect_found() {
  fresh
  [ -f "$scratch/tree/$2" ] || { echo "FAIL $1: $2 missing in the copy"; fails=$((fails+1)); return; }
  printf '%s\n' "$3" >> "$scratch/tree/$2"
  out=$(sh "$lint" "$scratch/tree" 2>&1); rc=$?
  if [ $rc = 0 ] || ! printf '%s' "$out" | grep -q "$4"; then
    echo "FAIL $1: planted '$3' in $2 was not found (rc=$rc): $out"; fails=$((fails+1))
  else
    echo "ok $1"
  fi
}

expect_clean() {
  fresh
  printf '%s\n' "$3" >> "$scratch/tree/$2"
  out=$(sh "$lint" "$scratch/tree" 2>&1) || { echo "FAIL $1: $out"; fails=$((fails+1)); return; }
  echo "ok $1"
}

expect_clean  "copy is clean"          src/exec/shell.cpp ""
expect_clean  "comment is not a call"  src/exec/shell.cpp "// execve(path, argv, envp) is for child.cpp"
expect_clean  "member call"            src/exec/shell.cpp "static void f(X& x) { x.fork(); }"
expect_found  "execve"                 src/exec/shell.cpp "static void f() { execve(\"/bin/sh\", nullptr, nullptr); }" "forbidden exec"
expect_found  "::execvp"               builtins/core.cpp  "static void f() { ::execvp(\"sh\", nullptr); }" "forbidden exec"
expect_found  "fork"                   src/exec/jobs.cpp  "static int f() { return fork(); }" "forbidden fork"
expect_found  "vfork in caps.h"        src/sandbox/caps.h "inline int f() { return vfork(); }" "forbidden fork"
expect_found  "system"                 src/exec/shell.cpp "static int f() { return system(\"id\"); }" "system/popen"
expect_found  "setenv"                 src/exec/vars.cpp  "static void f() { setenv(\"A\", \"b\", 1); }" "environment change"
expect_found  "raw execveat"           src/exec/shell.cpp "static long f() { return syscall(SYS_execveat, 0, \"\", 0, 0, 0); }" "raw exec"
expect_found  "raw clone3 number"      src/exec/shell.cpp "static long f() { return ::syscall(435, 0, 0); }" "raw fork"
expect_found  "raw clone3 name"        src/sandbox/ns.cpp "static long f() { return syscall(__NR_clone3, 0, 0); }" "raw fork"
expect_found  "raw landlock number"    src/sandbox/launch.cpp "static long f(int fd) { return syscall(446, fd, 0); }" "landlock raw"
expect_found  "raw landlock name"      src/sandbox/landlock.cpp "static long f(int fd) { return syscall(SYS_landlock_restrict_self, fd, 0); }" "landlock raw"
expect_found  "restrict_self wrapper"  src/sandbox/launch.cpp "static long f(int fd) { return ll::restrict_self(fd, 0); }" "landlock restrict_self"
expect_found  "restrict_self in exec"  src/exec/shell.cpp "static long f(int fd) { return lash::sandbox::ll::restrict_self(fd, 0); }" "landlock restrict_self"
expect_found  "add_rule outside"       src/sandbox/ns.cpp "static long f(int fd) { return ll::add_rule(fd, 1, nullptr, 0); }" "landlock ruleset"

# an allowance naming a file that is gone is an error
fresh
rm "$scratch/tree/src/sandbox/caps.cpp"
out=$(sh "$lint" "$scratch/tree" 2>&1)
if [ $? = 0 ] || ! printf '%s' "$out" | grep -q "does not exist"; then
  echo "FAIL stale allowance: caps.cpp removed, lint said: $out"; fails=$((fails+1))
else
  echo "ok stale allowance"
fi

[ $fails = 0 ] && echo "forbidden_calls_selftest: all planted calls found" 
exit $((fails > 0))
