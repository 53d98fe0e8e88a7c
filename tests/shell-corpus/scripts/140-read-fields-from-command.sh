# Read fields from command output in a loop.
grep -v '^#' data/hosts.txt | while read -r name ip role; do
  printf '%-8s %-15s %s\n' "$name" "$ip" "$role"
done
