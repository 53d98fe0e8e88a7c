# Emulate a 2D grid with an associative array.
declare -A grid
for ((r = 0; r < 3; r++)); do
  for ((c = 0; c < 3; c++)); do grid[$r,$c]=$((r * 3 + c)); done
done
for ((r = 0; r < 3; r++)); do
  echo "${grid[$r,0]} ${grid[$r,1]} ${grid[$r,2]}"
done
echo "diag sum: $((grid[0,0] + grid[1,1] + grid[2,2]))"
