# paste joins columns; column -t aligns.
paste -d, <(cut -d, -f1 data/users.csv | head -n 3) <(cut -d, -f4 data/users.csv | head -n 3)
seq 6 | paste - - -
seq 5 | paste -sd+
grep -v '^#' data/hosts.txt | column -t
