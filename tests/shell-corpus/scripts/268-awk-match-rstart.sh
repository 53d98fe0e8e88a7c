# match() with RSTART and RLENGTH.
awk 'match($0, /[0-9]+ms/) { print substr($0, RSTART, RLENGTH) }' data/error.log | sort -u
awk 'match($0, /\[[a-z.]+\]/) { c[substr($0, RSTART + 1, RLENGTH - 2)]++ } END { for (k in c) print k, c[k] }' data/error.log | sort
