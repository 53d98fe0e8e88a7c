# Bytes and requests per path.
awk '{ req[$7]++; bytes[$7] += $10 } END { for (p in req) printf "%-24s %4d %8d\n", p, req[p], bytes[p] }' data/access.log | sort -k2,2nr -k1,1 | head -n 6
