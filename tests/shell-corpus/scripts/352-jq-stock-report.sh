# A stock report per warehouse.
jq -r '.items[] | .name as $n | .stock | to_entries[] | "\(.key)\t\($n)\t\(.value)"' data/inventory.json | sort -t$'\t' -k1,1 -k3,3nr | awk -F'\t' '$1 != last { print $1 ":"; last = $1 } { print "  " $2 " " $3 }' | head -n 12
