# Deterministic pseudo-random numbers with an LCG.
seed=12345
next() { seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); }
for i in 1 2 3 4 5; do next; echo $(( seed % 100 )); done
