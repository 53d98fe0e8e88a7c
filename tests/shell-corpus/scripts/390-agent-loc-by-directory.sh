# Lines of code per top-level directory.
for d in crate web docs data; do
  printf '%-6s %6d\n' "$d" "$(find "$d" -type f -exec cat {} + | wc -l)"
done | sort -k2,2nr
