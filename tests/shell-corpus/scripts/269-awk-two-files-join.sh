# Join two files with NR == FNR.
awk -F'\t' 'NR == FNR { name[$1] = $2; next } FNR > 1 { q[$3] += $4 } END { for (s in q) if (s in name) print name[s], q[s] }' data/products.tsv FS=, data/orders.csv | sort -k2,2nr -k1 | head -n 5
