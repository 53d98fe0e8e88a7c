# Extract emails and domains.
grep -oE '[a-z.]+@[a-z.]+' data/users.csv | cut -d@ -f2 | sort | uniq -c
grep -ohE 'https?://[a-zA-Z0-9./:-]+' -r config docs | sort -u
