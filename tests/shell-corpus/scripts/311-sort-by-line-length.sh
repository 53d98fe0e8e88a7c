# Longest lines first.
awk '{ print length, $0 }' notes/ideas.txt | sort -k1,1nr -k2 | head -n 3 | cut -d' ' -f2-
