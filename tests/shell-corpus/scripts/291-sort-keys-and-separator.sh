# -t and -k select the sort key.
sort -t, -k4,4nr -k1,1 data/orders.csv | head -n 5
sort -t$'\t' -k3,3 -k4,4n data/products.tsv | cut -f2-4 | head -n 6
