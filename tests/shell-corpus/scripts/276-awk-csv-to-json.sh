# Turn CSV rows into JSON lines.
awk -F, 'NR > 1 && NR <= 4 { printf "{\"id\":%d,\"name\":\"%s\",\"active\":%s}\n", $1, $2, $6 }' data/users.csv
