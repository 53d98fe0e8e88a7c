# Orders per status per user, top entries.
tail -n +2 data/orders.csv | cut -d, -f2,6 | sort | uniq -c | sort -k1,1nr -k2 | head -n 5
