#!/bin/sh
# Fails when the policy gate or the dry run knows a builtin by name (issue 17).
#   no_builtin_names.sh [REPO_ROOT]
# What a builtin does is declared by its effects function beside it (builtins/*.cpp,
# exec/builtin_api.h). A name compare in these files is a second copy of a builtin's
# argument parsing, which drifts from the builtin (`read -rp PROMPT x` once did).
root=${1:-$(dirname "$0")/../..}
cd "$root" || exit 2
files="src/exec/policy_gate.cpp src/exec/dry_run.cpp"
# builtin->name, or argv[N] / name / sub compared with a string literal (a member
# such as prm->name, a parameter's name, is not a builtin's).
pattern='builtin->name|(argv\[[0-9]+\]|(^|[^>.[:alnum:]_])(name|sub)) *(==|!=) *"'
if grep -nE "$pattern" $files; then
  echo "the lines above decide by a builtin's name: declare the effect in its effects function"
  exit 1
fi
echo "no builtin names in $files"
