# Turn a CSV slice into a markdown table.
head -n 4 data/users.csv | awk -F, '{ printf "| %s | %s | %s |\n", $1, $2, $4 } NR == 1 { print "|---|---|---|" }'
