# sort -n and -r.
sort -n data/numbers.txt | head -n 3
sort -nr data/numbers.txt | head -n 3
sort data/numbers.txt | head -n 3
