# Remove duplicates, keeping the first occurrence.
awk '!seen[$0]++' notes/ideas.txt
