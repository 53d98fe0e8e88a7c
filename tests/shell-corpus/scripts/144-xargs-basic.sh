# xargs builds command lines from input.
printf '%s\n' a b c | xargs echo
printf '%s\n' a b c d e | xargs -n 2 echo
printf 'x y\nz\n' | xargs printf '<%s>\n'
echo "docs/index.md docs/api.md" | xargs wc -l
