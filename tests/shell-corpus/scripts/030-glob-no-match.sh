# An unmatched glob stays literal unless nullglob is set.
echo nothing/*.xyz
shopt -s nullglob
files=(nothing/*.xyz)
echo "nullglob: ${#files[@]}"
shopt -u nullglob
for f in *.nomatch; do echo "loop saw: $f"; done
