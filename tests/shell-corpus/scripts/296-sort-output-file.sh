# sort -o writes (even onto its input).
cp notes/ideas.txt ideas.sorted
sort -o ideas.sorted ideas.sorted
cat ideas.sorted
