# Multiplication table.
for i in 1 2 3 4; do
  row=""
  for j in 1 2 3 4; do row+=$(printf '%4d' $((i * j))); done
  echo "$row"
done
