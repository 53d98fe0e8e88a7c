# -o prints only the matched parts.
grep -o '"[A-Z]* /[^ ]*' data/access.log | sort | uniq -c | sort -k1,1nr -k2 | head -n 5
grep -oE '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+' data/access.log | sort -u
