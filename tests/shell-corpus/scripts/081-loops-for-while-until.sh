# for, C-style for, while and until.
for x in a b c; do printf '%s' "$x"; done; echo
for ((i = 0; i < 5; i += 2)); do printf '%d ' "$i"; done; echo
n=3; while [ $n -gt 0 ]; do printf '%d ' $n; n=$((n - 1)); done; echo
m=0; until [ $m -ge 3 ]; do printf 'm%d ' $m; ((m++)); done; echo
