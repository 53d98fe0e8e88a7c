# Count by key with an awk array.
awk -F, 'NR > 1 { c[$6]++ } END { for (k in c) print k, c[k] }' data/orders.csv | sort
awk -F, 'NR > 1 { c[$5]++ } END { for (k in c) print c[k], k }' data/users.csv | sort -k1,1nr -k2
