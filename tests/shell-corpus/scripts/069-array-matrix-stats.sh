# Sum each row of a matrix file.
while read -r -a row; do
  sum=0
  for v in "${row[@]}"; do ((sum += v)); done
  echo "${#row[@]} values, sum $sum"
done < data/matrix.txt
