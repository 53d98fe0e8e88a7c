# Build a table of contents from headings.
grep '^##' docs/guide.md | sed -E 's/^## (.*)/\1/' | while read -r title; do
  anchor=$(echo "$title" | tr 'A-Z ' 'a-z-')
  echo "- [$title](#$anchor)"
done
