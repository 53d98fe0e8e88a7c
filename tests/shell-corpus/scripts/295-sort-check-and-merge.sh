# -c checks order; -m merges sorted inputs.
sort -c data/numbers.txt 2>/dev/null; echo "unsorted: $?"
sort -n data/numbers.txt > sorted.txt
sort -nc sorted.txt; echo "sorted: $?"
printf '1\n4\n9\n' > a.txt; printf '2\n3\n10\n' > b.txt
sort -m -n a.txt b.txt | tr '\n' ' '; echo
rm sorted.txt a.txt b.txt
