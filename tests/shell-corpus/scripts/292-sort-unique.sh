# sort -u and sort | uniq.
cut -d, -f6 data/orders.csv | sort -u
cut -d, -f5 data/users.csv | tail -n +2 | sort | uniq | wc -l
