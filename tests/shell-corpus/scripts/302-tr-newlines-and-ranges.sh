# Join lines and count characters.
head -n 5 data/numbers.txt | tr '\n' '+' | sed 's/+$/\n/'
tr -s '[:space:]' '\n' < docs/api.md | grep -c .
tr 'a-z' 'A-Z' < notes/ideas.txt | head -n 2
