# Sums and averages in END.
awk '{ s += $1 } END { print "sum", s, "avg", s / NR }' data/numbers.txt
awk -F, 'NR > 1 { q += $4 } END { print q " units in " NR - 1 " orders" }' data/orders.csv
