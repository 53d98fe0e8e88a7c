# Rename *.txt to *.md in a directory.
for f in notes/*.txt; do
  mv -- "$f" "${f%.txt}.md"
done
ls notes
