# Patterns, comparisons and regex matches.
awk -F, '$4 > 10 && $6 == "shipped" { print $1, $4 }' data/orders.csv
awk '$2 ~ /^192\.168\./ { print $1 }' data/hosts.txt
awk '$1 !~ /^#/ && $3 == "cache"' data/hosts.txt
