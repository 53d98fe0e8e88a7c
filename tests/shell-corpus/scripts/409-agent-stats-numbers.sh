# Count, sum, mean, median of a number file.
sort -n data/numbers.txt > sorted.txt
n=$(wc -l < sorted.txt)
sum=$(awk '{ s += $1 } END { print s }' sorted.txt)
if ((n % 2)); then median=$(sed -n "$(( (n + 1) / 2 ))p" sorted.txt); else
  a=$(sed -n "$((n / 2))p" sorted.txt); b=$(sed -n "$((n / 2 + 1))p" sorted.txt); median=$(( (a + b) / 2 )); fi
echo "n=$n sum=$sum mean=$((sum / n)) median=$median"
rm sorted.txt
