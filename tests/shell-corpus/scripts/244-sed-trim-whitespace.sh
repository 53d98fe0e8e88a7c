# Strip leading and trailing whitespace.
sed 's/^[[:space:]]*//; s/[[:space:]]*$//' data/messy.txt | cat -A | head -n 5
sed 's/  */ /g' data/messy.txt | grep inner
