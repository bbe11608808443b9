#!/bin/sh
# Fails when a forbidden call appears outside the one file allowed to make it.
#   forbidden_calls.sh [REPO_ROOT]
# Security-relevant calls live in one reviewed place each (examples.md §1-3):
# starting programs in the sandbox launcher, environment changes in one file,
# Landlock in the child-side setup. Comments and string literals are not
# Text after // on a line is ignored; write such names in /* */ comments
# without the call's parenthesis.

# --- allowed places (paths relative to the repository root) ---
# Every path listed must exist: an allowance for a file that is gone is an error, so
# a rename cannot leave a stale exception (or a typo one that never matched).
EXEC_ALLOWED="src/sandbox/child.cpp src/sandbox/launch.cpp"
# caps.cpp: the user-namespace probe forks a child that only calls unshare and
# _exit (no exec), so lash itself is not changed by the probe.
FORK_ALLOWED="src/sandbox/child.cpp src/sandbox/launch.cpp src/sandbox/caps.cpp"
# lash never changes its own environment: children get an envp built by the policy.
SETENV_ALLOWED=""
# Landlock: the raw system calls are wrapped once (landlock_abi.h: create_ruleset,
# add_rule, restrict_self); rulesets are built in landlock.cpp (caps.cpp asks the
# ABI version), and only the child restricts itself, after fork (and the network
# relay, a helper of lash, confines itself: relay_confine.cpp).
LANDLOCK_RAW_ALLOWED="src/sandbox/landlock_abi.h"
LANDLOCK_BUILD_ALLOWED="src/sandbox/landlock_abi.h src/sandbox/landlock.cpp src/sandbox/caps.cpp"
LANDLOCK_RESTRICT_ALLOWED="src/sandbox/landlock_abi.h src/sandbox/child.cpp src/sandbox/relay_confine.cpp"

# Directories that are searched.
SEARCH_DIRS="src builtins"

root=${1:-$(dirname "$0")/../..}
cd "$root" || exit 2

status=0
for f in $EXEC_ALLOWED $FORK_ALLOWED $SETENV_ALLOWED $LANDLOCK_RAW_ALLOWED \
         $LANDLOCK_BUILD_ALLOWED $LANDLOCK_RESTRICT_ALLOWED; do
  [ -f "$f" ] || { echo "forbidden_calls: allowed file $f does not exist (stale allowance)"; status=1; }
done
# check NAME REGEX ALLOWED_FILES
check() {
  name=$1 regex=$2 allowed=$3
  dirs=
  for d in $SEARCH_DIRS; do [ -d "$d" ] && dirs="$dirs $d"; done
  [ -n "$dirs" ] || { echo "forbidden_calls: none of $SEARCH_DIRS under $PWD"; status=1; return; }
  # shellcheck disable=SC2086
  grep -rnE --include='*.cpp' --include='*.cc' --include='*.h' --include='*.hpp' \
       "$regex" $dirs 2>/dev/null |
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}; code=${rest#*:}
    # Only the code part before a // comment counts.
    printf '%s\n' "${code%%//*}" | grep -qE "$regex" || continue
    ok=no
    for a in $allowed; do [ "$file" = "$a" ] && ok=yes; done
    [ $ok = yes ] || echo "forbidden $name outside {$allowed}: $hit"
  done > "$tmp"
  if [ -s "$tmp" ]; then cat "$tmp"; status=1; fi
}

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

# Not a member call (. -> or Class::) nor part of a longer name; a leading :: is the global one, optional ::, then an opening parenthesis.
b='(^|[^A-Za-z0-9_.>:])(::)?'
check "exec"        "${b}(execve|execv|execvp|execvpe|execl|execlp|execle|fexecve|execveat|posix_spawn|posix_spawnp)[[:space:]]*\(" "$EXEC_ALLOWED"
check "fork"        "${b}(fork|vfork|clone|clone3)[[:space:]]*\(" "$FORK_ALLOWED"
# libc system/popen take arguments; "system()" is some class's own function.
check "system/popen" "${b}(system|popen)[[:space:]]*\([[:space:]]*[^)[:space:]]" ""
check "environment change" "${b}(setenv|putenv|unsetenv|clearenv)[[:space:]]*\(" "$SETENV_ALLOWED"
# Raw system calls: syscall(SYS_x / __NR_x / the number) of the same families.
sc='(^|[^A-Za-z0-9_.>:])(::)?syscall[[:space:]]*\([[:space:]]*'
check "raw exec"    "${sc}(SYS_|__NR_)(execve|execveat)\b|${sc}(59|322)[[:space:]]*[,)]" "$EXEC_ALLOWED"
check "raw fork"    "${sc}(SYS_|__NR_)(fork|vfork|clone|clone3)\b|${sc}(56|57|58|435)[[:space:]]*[,)]" "$FORK_ALLOWED"
# Landlock: the raw calls (by name or number, x86-64 and generic numbering agree)...
check "landlock raw syscall" "${sc}((SYS_|__NR_)landlock_|44[4-6][[:space:]]*[,)/])|${b}(landlock_restrict_self|landlock_create_ruleset|landlock_add_rule)[[:space:]]*\(" "$LANDLOCK_RAW_ALLOWED"
# ...and the wrappers of landlock_abi.h (ll::restrict_self, ...), however qualified.
w='(^|[^A-Za-z0-9_])'
check "landlock ruleset" "${w}(create_ruleset|add_rule)[[:space:]]*\(" "$LANDLOCK_BUILD_ALLOWED"
check "landlock restrict_self" "${w}restrict_self[[:space:]]*\(" "$LANDLOCK_RESTRICT_ALLOWED"

if [ $status = 0 ]; then echo "forbidden_calls: clean"; fi
exit $status
