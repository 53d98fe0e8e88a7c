# Rewrite a file in place via a temporary copy.
sort -u notes/ideas.txt > notes/ideas.tmp && mv notes/ideas.tmp notes/ideas.txt
cat notes/ideas.txt
awk '!seen[$0]++' data/words.txt > w.tmp && mv w.tmp data/words.txt
wc -l < data/words.txt
