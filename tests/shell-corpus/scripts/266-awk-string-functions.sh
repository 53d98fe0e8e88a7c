# length, substr, index, toupper, tolower.
awk -F, 'NR > 1 && NR < 5 { print toupper(substr($2, 1, 3)), length($3), index($3, "@") }' data/users.csv
awk 'BEGIN { s = "Inventory"; print tolower(s), length(s), substr(s, 3, 4) }'
