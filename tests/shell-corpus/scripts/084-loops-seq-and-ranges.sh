# seq in loops.
for i in $(seq 3); do echo "i=$i"; done
seq 2 3 11 | tr '\n' ' '; echo
seq -w 8 11
seq -s, 5
