# read from an empty stdin fails.
if read -r line; then echo "got: $line"; else echo "stdin is empty (status $?)"; fi
cat | wc -c
