# Top client IPs with request counts and error rate.
awk '{ n[$1]++; if ($9 >= 400) e[$1]++ } END { for (ip in n) printf "%s %d %d\n", ip, n[ip], e[ip] }' data/access.log | sort -k2,2nr -k1,1 | head -n 5 | while read -r ip total errors; do
  printf '%-15s %4d requests, %3d%% errors\n' "$ip" "$total" $((errors * 100 / total))
done
