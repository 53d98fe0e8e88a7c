# Changing a field rebuilds the record with OFS.
awk -F, -v OFS=, 'NR > 1 { $2 = toupper($2) } NR <= 3' data/users.csv
echo "a   b    c" | awk '{ $1 = $1; print }'
echo "a b c" | awk '{ $5 = "e"; print; print NF }'
