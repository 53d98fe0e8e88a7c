# Transpose a matrix.
awk '{ for (i = 1; i <= NF; i++) m[i, NR] = $i } END { for (i = 1; i <= NF; i++) { row = ""; for (j = 1; j <= NR; j++) row = row (j > 1 ? " " : "") m[i, j]; print row } }' data/matrix.txt
