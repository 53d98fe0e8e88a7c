# Pipelines inside a loop that reads a pipe: each inner pipeline reads its own
# input, never the rest of the loop's (the agent idiom `... | while read f; do
# echo "$f" | grep -q ...; done`).
seq 5 | while read x; do echo "$x" | grep -c .; done
printf 'foo\nbar\nfoo2\nbaz\n' | while read f; do
  if echo "$f" | grep -q foo; then echo "match $f"; else echo "skip $f"; fi
done
seq 3 | while read x; do
  a=$(echo "$x" | grep -c .)
  b=$(echo "$x" | head -c 5)
  c=$(echo "$x" | tr 1 X)
  d=$(echo "$x" | cat)
  e=$(echo "$x" | wc -l)
  echo "[$a|$b|$c|$d|$e]"
done
seq 4 | while read x; do echo "$x" | cat; read y; echo "then $y"; done
count() { echo "$1" | grep -c 2; }
seq 3 | while read line; do count "$line"; done
find crate -name '*.rs' | sort | while read -r f; do
  printf '%s %s\n' "$(echo "$f" | tr / .)" "$(cat "$f" | wc -l)"
done
ls data | { while read -r name; do echo "$name" | tr a-z A-Z | cut -c1-3; done; } | sort | uniq -c
echo "${PIPESTATUS[@]}"
