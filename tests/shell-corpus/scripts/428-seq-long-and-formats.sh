# seq past 100,000 lines, and GNU's formats, widths, steps and errors.
seq 150000 | tail -n 2
seq 150000 | wc -l
seq 3 150000 | head -n 2
seq inf | head -n 3 | tr "\n" " "; echo
seq -w 8 11 | tr '\n' ' '; echo
seq -w -3 10 | tr '\n' ' '; echo
seq -s, 5
seq -s '' 3
seq 1 0.25 2 | tr '\n' ' '; echo
seq 0 0.1 0.5 | tr '\n' ' '; echo
seq -f '%05.1f' 1 3
seq -f 'n=%g' 2 2 6
seq 5 -2 -3 | tr '\n' ' '; echo
seq 1e3 1e3
seq 1.5e1 17 | tr '\n' ' '; echo
seq 18446744073709551615 18446744073709551617
seq 10 1; echo "down: $?"
seq 1 0 2 2>/dev/null; echo "zero step: $?"
seq x 2>/dev/null; echo "not a number: $?"
seq -f '%d' 1 2>/dev/null; echo "bad format: $?"
seq 1 2 3 4 2>/dev/null; echo "extra: $?"
n=0; for i in $(seq 3); do n=$((n + i)); done; echo "sum $n"
