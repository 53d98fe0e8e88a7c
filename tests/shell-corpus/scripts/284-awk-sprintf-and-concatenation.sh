# Building strings with sprintf.
awk -F, 'NR > 1 && NR <= 4 { id = sprintf("U%04d", $1); print id ":" $2 }' data/users.csv
