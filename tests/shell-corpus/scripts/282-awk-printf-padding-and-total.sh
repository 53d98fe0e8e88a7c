# A report with a total line.
awk -F'\t' 'NR > 1 { v = $4 * $6; t += v; printf "%-8s %10.2f\n", $1, v } END { printf "%-8s %10.2f\n", "TOTAL", t }' data/products.tsv | tail -n 6
