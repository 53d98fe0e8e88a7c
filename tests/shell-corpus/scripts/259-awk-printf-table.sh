# printf formatting in awk.
awk -F'\t' 'NR > 1 && NR <= 6 { printf "%-10s %8.2f %5d\n", $2, $4, $6 }' data/products.tsv
awk 'BEGIN { printf "%05.1f|%-4s|%x|%c\n", 3.14159, "ab", 255, 65 }'
