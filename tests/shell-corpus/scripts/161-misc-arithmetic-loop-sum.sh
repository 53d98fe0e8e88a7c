# Sum numbers from a file in pure bash.
sum=0; n=0; max=-999999
while read -r x; do
  ((sum += x, n++))
  ((x > max)) && max=$x
done < data/numbers.txt
echo "n=$n sum=$sum max=$max avg=$((sum / n))"
