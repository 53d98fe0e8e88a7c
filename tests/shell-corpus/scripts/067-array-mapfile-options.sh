# mapfile with -s (skip) and -n (count).
mapfile -t -s 1 -n 3 rows < data/users.csv
printf '%s\n' "${rows[@]}"
mapfile -t -d , fields <<< "a,b,c"
echo "${#fields[@]} [${fields[2]}]"
