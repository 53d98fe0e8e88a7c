# Redirect whole blocks and loops.
{
  echo "header"
  for i in 1 2 3; do echo "row $i"; done
} > table.txt
for f in docs/*.md; do echo "$f"; done > list.txt
while read -r l; do echo "${#l}"; done < list.txt > lens.txt
cat table.txt list.txt lens.txt | wc -l
paste list.txt lens.txt
