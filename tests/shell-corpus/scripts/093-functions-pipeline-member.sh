# Functions in pipelines.
upper() { tr 'a-z' 'A-Z'; }
number() { local n=0; while IFS= read -r l; do ((n++)); echo "$n: $l"; done; }
head -n 3 notes/todo.txt | upper | number
