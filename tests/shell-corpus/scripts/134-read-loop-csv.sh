# Read a CSV line by line.
while IFS=, read -r id name email role city active; do
  [[ $role == admin ]] && echo "$id $name ($city)"
done < data/users.csv
