# uniq -c, -d, -u.
sort notes/ideas.txt | uniq -c
echo "--- duplicated"
sort notes/ideas.txt | uniq -d
echo "--- unique"
sort notes/ideas.txt | uniq -u
