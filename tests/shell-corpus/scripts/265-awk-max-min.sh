# Max and min tracking.
awk 'NR == 1 { min = max = $1 } { if ($1 > max) max = $1; if ($1 < min) min = $1 } END { print min, max }' data/numbers.txt
awk -F'\t' 'NR > 1 && $6 > m { m = $6; who = $2 } END { print who, m }' data/products.tsv
