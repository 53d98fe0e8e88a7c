# Slices and negative indexes.
nums=(10 20 30 40 50 60)
echo "${nums[@]:2}"
echo "${nums[@]:1:3}"
echo "${nums[-1]} ${nums[-2]}"
echo "${nums[@]: -2}"
