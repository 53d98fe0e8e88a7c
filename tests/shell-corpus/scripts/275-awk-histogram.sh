# A text histogram.
awk -F, 'NR > 1 { c[$6]++ } END { for (k in c) { bar = ""; for (i = 0; i < c[k]; i += 5) bar = bar "#"; printf "%-10s %3d %s\n", k, c[k], bar } }' data/orders.csv | sort
