# seq with widths, steps and separators.
seq -w 1 3 10
seq 1.5 0.5 3
seq -f 'item-%03g' 3
seq 10 -3 1 | tr '\n' ' '; echo
