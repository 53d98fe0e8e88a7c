# read -d '' with find -print0.
find docs -name '*.md' -print0 | sort -z | while IFS= read -r -d '' f; do
  echo "md: $f"
done
