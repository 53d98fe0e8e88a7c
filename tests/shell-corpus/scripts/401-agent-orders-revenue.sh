# Revenue per product from the orders, top 5.
awk -F, 'NR > 1 && $6 == "shipped" { r[$3] += $4 * $5 } END { for (s in r) printf "%s %.2f\n", s, r[s] }' data/orders.csv | sort -k2,2nr -k1,1 | head -n 5
