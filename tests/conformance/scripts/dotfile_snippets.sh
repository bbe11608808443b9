#!/usr/bin/env bash
# Snippets of the kind found in dotfiles (no interactive parts).
path_prepend() { [[ ":$PATH:" == *":$1:"* ]] || PATH="$1:$PATH"; }
PATH=/usr/bin:/bin
path_prepend "$HOME/bin"; path_prepend /usr/bin
echo "${PATH//:/ }"
mkcd_name() { local d=${1%/}; echo "${d##*/}"; }
mkcd_name /tmp/some/dir/
for ext in tar.gz zip 7z; do
  f="archive.$ext"
  case $f in *.tar.gz) echo "tar xzf $f";; *.zip) echo "unzip $f";; *) echo "unknown: ${f##*.}";; esac
done
colors=(red green blue); echo "${colors[@]/#/color-}" "${#colors[1]}"
printf -- '%s\n' "${colors[@]:1}"
