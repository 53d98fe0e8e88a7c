# Per-column sums of a matrix.
awk '{ for (i = 1; i <= NF; i++) s[i] += $i } END { for (i = 1; i <= NF; i++) printf "%s%s", s[i], (i < NF ? " " : "\n") }' data/matrix.txt
