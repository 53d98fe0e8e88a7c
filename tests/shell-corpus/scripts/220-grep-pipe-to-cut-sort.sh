# Which components log errors, most first.
grep ERROR data/error.log | cut -d' ' -f3 | sort | uniq -c | sort -k1,1nr -k2
