# Match names containing spaces.
find . -name '* *' | sort
find . -name '* *' -type f | while IFS= read -r f; do echo "$(wc -l < "$f") $f"; done | sort -k2
