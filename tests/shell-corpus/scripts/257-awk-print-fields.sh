# Print fields with -F.
awk -F, 'NR > 1 { print $2 }' data/users.csv | head -n 5
awk -F'\t' '{ print $1, $NF }' data/products.tsv | head -n 4
awk '{ print $1 }' data/access.log | sort -u | head -n 3
