# cut -d -f and -c.
cut -d, -f2,4 data/users.csv | head -n 3
cut -d, -f3- data/orders.csv | head -n 2
cut -c1-8 data/error.log | sort -u
cut -f2 data/products.tsv | head -n 3
