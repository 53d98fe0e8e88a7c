# Check that relative markdown links point to files.
grep -o '](\([^)]*\))' docs/index.md | sed 's/](\(.*\))/\1/' | while read -r link; do
  if [[ -e docs/$link ]]; then echo "ok      $link"; else echo "missing $link"; fi
done
