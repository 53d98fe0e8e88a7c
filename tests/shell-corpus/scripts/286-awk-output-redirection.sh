# Split a file into several with print > file.
awk -F, 'NR > 1 { print $1 "," $2 > ("by-role-" $4 ".csv") }' data/users.csv
wc -l by-role-*.csv
