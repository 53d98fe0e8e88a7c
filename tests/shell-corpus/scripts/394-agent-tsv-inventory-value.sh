# Inventory value per warehouse from the TSV.
tail -n +2 data/products.tsv | awk -F'\t' '{ v[$5] += $4 * $6; n[$5] += $6 } END { for (w in v) printf "%-6s %5d units %12.2f\n", w, n[w], v[w] }' | sort
