# Globs handle file names with spaces safely when quoted.
for f in notes/*; do
  printf '[%s] %s lines\n' "$f" "$(wc -l < "$f")"
done
