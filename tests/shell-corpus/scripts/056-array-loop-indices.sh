# Iterate over indices.
colors=(red green blue)
for i in "${!colors[@]}"; do
  printf '%d:%s\n' "$i" "${colors[$i]}"
done
for ((i = ${#colors[@]} - 1; i >= 0; i--)); do echo "${colors[i]}"; done
