# Group users by city with an associative array.
declare -A by_city
while IFS=, read -r id name email role city active; do
  [[ $id == id ]] && continue
  by_city[$city]+="${name%% *} "
done < data/users.csv
for c in $(printf '%s\n' "${!by_city[@]}" | sort); do
  echo "$c: ${by_city[$c]% }"
done
