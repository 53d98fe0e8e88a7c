# Revenue per region.
awk -F, 'NR > 1 { r[$2] += $3 } END { for (k in r) printf "%s %.2f\n", k, r[k] }' "data/sales 2023.csv" | sort -k2,2nr
